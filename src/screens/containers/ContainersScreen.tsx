import React, { useEffect } from 'react';
import { Box, Text } from 'ink';
import type { ScreenDef, ScreenProps } from '../../app/screen-types';
import { useTone } from '../../components/theme';
import { useNow } from '../../components/use-now';
import { useActions } from '../../keys/react';
import { createContainersStore } from '../../state/containers-store';
import { useDomainStore, useSelect } from '../../state/react';
import { containersActions } from './actions';
import { LIMITS_PANEL_HEIGHT, LimitsPanel } from './LimitsPanel';

/**
 * Magic Containers. A column: the limits gauges on top, the body below (the apps list and the
 * region-settings editor go there; they get `bodyHeight` lines).
 */
export function ContainersScreen({ width, height }: ScreenProps): React.JSX.Element {
  const store = useDomainStore(createContainersStore);
  const limits = useSelect(store, (s) => s.limits);
  const limitsAt = useSelect(store, (s) => s.limitsAt);
  const error = useSelect(store, (s) => s.limitsError);
  const loading = useSelect(store, (s) => s.limitsLoading);
  const paused = useSelect(store, (s) => s.paused);
  const now = useNow(1000);
  const tone = useTone();

  useEffect(() => store.getState().watchLimits(), [store]);
  useActions({
    'screen.refresh': () => void store.getState().refreshLimits(),
    'screen.pause': () => store.getState().togglePause(),
  });

  const bodyHeight = Math.max(0, height - LIMITS_PANEL_HEIGHT - 1);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <LimitsPanel limits={limits} limitsAt={limitsAt} error={error} loading={loading} paused={paused} now={now} width={width} />
      <Text> </Text>
      <Box flexDirection="column" height={bodyHeight} overflow="hidden">
        <Text color={tone('muted')}>Applications list and region settings: not built yet.</Text>
      </Box>
    </Box>
  );
}

export const containersScreen: ScreenDef = {
  id: 'containers',
  title: 'containers',
  aliases: ['mc', 'apps'],
  summary: 'Magic Containers: limits and usage, apps, region settings',
  actions: containersActions,
  component: ContainersScreen,
};
