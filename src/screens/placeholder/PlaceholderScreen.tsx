import React from 'react';
import { Box, Text } from 'ink';
import type { ScreenDef, ScreenProps } from '../screen-def';
import { useTone } from '../../components/theme';

/**
 * Stands in for a screen that is not built yet, so its command, aliases and breadcrumbs work
 * today. Replace `placeholderScreen({...})` in src/app/screens.ts with the real ScreenDef.
 */
export function placeholderScreen(def: Omit<ScreenDef, 'component' | 'built'>): ScreenDef {
  function Placeholder({ instance, width }: ScreenProps): React.JSX.Element {
    const tone = useTone();
    return (
      <Box flexDirection="column" width={width} paddingX={1}>
        <Text bold>{def.title}</Text>
        <Text> </Text>
        <Text color={tone('warn')}>{`This screen is not built yet: ${def.summary}.`}</Text>
        {instance.arg !== null ? <Text>{`(${def.arg?.name ?? 'argument'} ${instance.arg} noted; it will be used once the screen exists)`}</Text> : null}
        <Text> </Text>
        <Text color={tone('muted')}>Press esc to go back, or : to open another screen.</Text>
      </Box>
    );
  }
  Placeholder.displayName = `Placeholder(${def.id})`;
  return { ...def, built: false, component: Placeholder };
}
