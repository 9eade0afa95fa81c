import React from 'react';
import { Box, Text } from 'ink';
import type { ScreenDef, ScreenProps } from '../screen-def';
import { Table } from '../../components/Table';
import { PolledListView, usePolledList } from '../polled-list';
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
  const profileId = useSelect(store, (s) => s.profileId);
  const profile = useSelect(store, (s) => s.profile);
  const profileError = useSelect(store, (s) => s.profileError);
  const groupRows = React.useMemo(() => (profile ? profileRows(profile) : []), [profile]);

  usePolledList(store);
  useActions({
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
          record={(r) =>
            r.kind === 'group'
              ? serverRecord(`origin group ${r.group.Id} ${r.group.Name ?? ''}`, r.group)
              : serverRecord(`origin ${r.origin.Id} of group ${r.group.Name ?? r.group.Id}`, r.origin)
          }
        />
      </Box>
    );
  }

  return (
    <PolledListView
      store={store}
      id="profiles"
      title="Load balancers"
      noun={['profile', 'profiles']}
      hint="enter: origin groups and origins"
      none="no load balancers"
      columns={lbColumns}
      width={width}
      height={height}
      onOpen={(l) => store.getState().openProfile(l.LoadBalancerId)}
      record={(l) => serverRecord(`load balancer ${l.LoadBalancerId} ${l.Name ?? ''}`, l)}
    />
  );
}

export const lbScreen: ScreenDef = {
  id: 'lb',
  title: 'load balancers',
  aliases: [...SCREEN_ALIASES.lb],
  summary: 'load balancer profiles, origin groups and health',
  component: LoadBalancersScreen,
};
