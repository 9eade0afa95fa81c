import React, { useEffect } from 'react';
import { Box, Text } from 'ink';
import { Table } from '../../components/Table';
import { formatAge } from '../../text/fit';
import { useTone } from '../../components/theme';
import { useNow } from '../../components/use-now';
import { useActions } from '../../keys/input-hooks';
import { useSelect } from '../../state/store-hooks';
import type { ShieldStore } from '../../state/shield-store';
import { terminalSafe } from '../../text/terminal-safe';
import { pageText, zoneColumns } from '../../renderers/shield-zones';
import { serverRecord } from '../server-record';

export interface ZonesListProps {
  store: ShieldStore;
  width: number;
  height: number;
}

/** The shield zones, one page of the API's page envelope at a time; enter opens API Guardian. */
export function ZonesList({ store, width, height }: ZonesListProps): React.JSX.Element {
  const zones = useSelect(store, (s) => s.zones);
  const info = useSelect(store, (s) => s.pageInfo);
  const error = useSelect(store, (s) => s.zonesError);
  const at = useSelect(store, (s) => s.zonesAt);
  const loading = useSelect(store, (s) => s.zonesLoading);
  const paused = useSelect(store, (s) => s.paused);
  const now = useNow(1000);
  const tone = useTone();

  useEffect(() => store.getState().watchZones(), [store]);
  useActions({
    'screen.refresh': () => void store.getState().refresh(),
    'screen.pause': () => store.getState().togglePause(),
    'shield.nextPage': () => store.getState().goToPage(store.getState().page + 1),
    'shield.prevPage': () => store.getState().goToPage(store.getState().page - 1),
  });

  const state = [pageText(info), paused ? 'paused' : '', at !== null ? `refreshed ${formatAge(now - at)}` : loading ? 'loading…' : ''].filter(Boolean).join(' · ');
  const tableHeight = Math.max(1, height - 1 - (error ? 1 : 0));
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Box height={1}>
        <Text bold wrap="truncate">
          Shield zones <Text color={tone('muted')}>(enter: API Guardian)</Text>
        </Text>
        <Box flexGrow={1} justifyContent="flex-end">
          <Text color={tone('muted')} wrap="truncate">
            {state}
          </Text>
        </Box>
      </Box>
      {error ? (
        <Text color={tone('error')} wrap="truncate">
          {terminalSafe(zones.length ? `refresh failed, showing the last data: ${error}` : `could not load the zones: ${error}`)}
        </Text>
      ) : null}
      <Table
        id="zones"
        rows={zones}
        columns={zoneColumns}
        width={width}
        height={tableHeight}
        onOpen={(z) => store.getState().openZone(z.shieldZoneId)}
        record={(z) => serverRecord(`shield zone ${z.shieldZoneId}`, z)}
        emptyText={loading || at === null ? 'loading zones…' : 'no shield zones on this page'}
      />
    </Box>
  );
}
