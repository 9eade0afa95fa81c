import React, { useEffect } from 'react';
import { Box, Text } from 'ink';
import type { ScreenDef, ScreenProps } from '../screen-def';
import { Table } from '../../components/Table';
import { emptyListText, ListTitle } from '../../components/ListTitle';
import { useTone } from '../../components/theme';
import { useActions } from '../../keys/input-hooks';
import { createLoadBalancersStore } from '../../state/load-balancers-store';
import { useDomainStore, useSelect } from '../../state/store-hooks';
import { terminalSafe } from '../../text/terminal-safe';
import { lbColumns, profileColumns, profileRows, profileSummary } from '../../renderers/load-balancers';
import { serverRecord } from '../server-record';
import { SCREEN_ALIASES } from '../../renderers/screen-names';

/**
 * Load balancers: the profiles (method and sticky sessions by name, groups, origins, health);
 * enter opens one profile: its origin groups in priority order, each followed by its origins.
 */
export function LoadBalancersScreen({ width, height }: ScreenProps): React.JSX.Element {
  const store = useDomainStore(createLoadBalancersStore);
  const tone = useTone();
  const lbRows = useSelect(store, (s) => s.rows);
  const loadedAt = useSelect(store, (s) => s.loadedAt);
  const error = useSelect(store, (s) => s.error);
  const profileId = useSelect(store, (s) => s.profileId);
  const profile = useSelect(store, (s) => s.profile);
  const profileError = useSelect(store, (s) => s.profileError);
  const groupRows = React.useMemo(() => (profile ? profileRows(profile) : []), [profile]);

  useEffect(() => store.getState().watch(), [store]);
  useActions({
    'screen.refresh': () => void store.getState().refresh(),
    'screen.pause': () => store.getState().togglePause(),
    'app.back': () => {
      if (store.getState().profileId === null) return false;
      store.getState().closeProfile();
      return true;
    },
  });

  if (profileId !== null) {
    return (
      <Box flexDirection="column" width={width} height={height} overflow="hidden">
        <Text bold wrap="truncate">{`Load balancer ${terminalSafe(profile?.Name ?? '')} (${profileId})`}</Text>
        <Text wrap="truncate" color={tone(profile ? undefined : 'muted')}>
          {profile ? profileSummary(profile) : profileError ? '' : 'loading the profile…'}
        </Text>
        {profileError ? <Text color={tone('error')} wrap="truncate">{`✖ ${terminalSafe(profileError)}`}</Text> : null}
        <Table
          id="profile"
          rows={groupRows}
          columns={profileColumns}
          width={width}
          height={Math.max(3, height - 2 - (profileError ? 1 : 0))}
          emptyText={profile ? 'no origin groups' : 'loading…'}
          record={(r) => (r.kind === 'group' ? serverRecord(`origin group ${r.group.Id} ${r.group.Name ?? ''}`, r.group) : serverRecord(`origin ${r.origin.Id} of group ${r.group.Name ?? r.group.Id}`, r.origin))}
        />
      </Box>
    );
  }

  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <ListTitle title="Load balancers" loading={loadedAt === null} count={lbRows.length} noun={['profile', 'profiles']} hint="enter: origin groups and origins" errors={[error]} />
      <Table
        id="profiles"
        rows={lbRows}
        columns={lbColumns}
        width={width}
        height={Math.max(3, height - 1)}
        emptyText={emptyListText(loadedAt, 'no load balancers')}
        onOpen={(l) => store.getState().openProfile(l.LoadBalancerId)}
        record={(l) => serverRecord(`load balancer ${l.LoadBalancerId} ${l.Name ?? ''}`, l)}
      />
    </Box>
  );
}

export const lbScreen: ScreenDef = {
  id: 'lb',
  title: 'load balancers',
  aliases: [...SCREEN_ALIASES.lb],
  summary: 'load balancer profiles, origin groups and health',
  component: LoadBalancersScreen,
};
