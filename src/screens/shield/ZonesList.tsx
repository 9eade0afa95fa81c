import React, { useEffect } from 'react';
import { Box } from 'ink';
import { Table } from '../../components/Table';
import { ListTitle, loadErrorText } from '../../components/ListTitle';
import { useNow } from '../../components/use-now';
import { useActions } from '../../keys/input-hooks';
import { useSelect } from '../../state/store-hooks';
import type { ShieldStore } from '../../state/shield-store';
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

  useEffect(() => store.getState().watchZones(), [store]);
  useActions({
    'screen.refresh': () => void store.getState().refresh(),
    'screen.pause': () => store.getState().togglePause(),
    'shield.nextPage': () => store.getState().goToPage(store.getState().page + 1),
    'shield.prevPage': () => store.getState().goToPage(store.getState().page - 1),
  });

  const problem = loadErrorText(error, zones.length > 0, 'the zones');
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <ListTitle
        title="Shield zones"
        loading={at === null && !error}
        hint="enter: API Guardian"
        errors={[problem]}
        status={pageText(info)}
        poll={{ paused, loadedAt: at, now }}
      />
      <Table
        id="zones"
        rows={zones}
        columns={zoneColumns}
        width={width}
        height={Math.max(1, height - 1)}
        onOpen={(z) => store.getState().openZone(z.shieldZoneId)}
        record={(z) => serverRecord(`shield zone ${z.shieldZoneId}`, z)}
        emptyText={loading || at === null ? 'loading zones…' : 'no shield zones on this page'}
      />
    </Box>
  );
}
