import React from 'react';
import { Box, Text } from 'ink';
import { fitLeft } from '../text/fit';
import { useTheme, useTone } from './theme';

export interface HeaderProps {
  width: number;
  emulator: boolean;
  profileName: string | null;
  endpoint: string;
  readOnly: boolean;
  crumbs: readonly string[];
}

/** A badge that stays unmistakable without colour: inverse when coloured, brackets when not. */
function Badge({ text, color }: { text: string; color: string }): React.JSX.Element {
  const { color: colored } = useTheme();
  if (!colored) return <Text bold>{`[${text}]`}</Text>;
  return (
    <Text bold color="black" backgroundColor={color}>
      {` ${text} `}
    </Text>
  );
}

/** One line: burrow, the emulator badge or profile, the endpoint host, read-only, breadcrumbs. */
export function Header({ width, emulator, profileName, endpoint, readOnly, crumbs }: HeaderProps): React.JSX.Element {
  const tone = useTone();
  const left = 7 + (emulator ? 11 : (profileName ?? 'default').length + 3) + endpoint.length + 1 + (readOnly ? 12 : 0);
  const trail = fitLeft(crumbs.join(' › '), Math.max(0, width - left - 2));
  return (
    <Box width={width} height={1} overflow="hidden">
      <Text bold color={tone('accent')}>
        burrow{' '}
      </Text>
      {emulator ? <Badge text="EMULATOR" color="yellow" /> : <Text bold>{`‹${profileName ?? 'default'}›`}</Text>}
      <Text color={tone('muted')}>{` ${endpoint} `}</Text>
      {readOnly ? <Badge text="READ-ONLY" color="magenta" /> : null}
      <Box flexGrow={1} justifyContent="flex-end">
        <Text wrap="truncate">{trail}</Text>
      </Box>
    </Box>
  );
}
