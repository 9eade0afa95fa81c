import React, { useEffect } from 'react';
import { Box, Text } from 'ink';
import { Table, type Column } from '../../components/Table';
import { useTone } from '../../components/theme';
import { useActions } from '../../keys/input-hooks';
import type { LogsStore, PickerZone } from '../../state/logs-store';
import { useSelect, useUiStore } from '../../state/store-hooks';

const columns: Column<PickerZone>[] = [
  { id: 'id', header: 'ID', width: 8, cell: (z) => z.id, sortValue: (z) => z.id },
  { id: 'name', header: 'NAME', flex: 1, cell: (z) => z.name },
  { id: 'host', header: 'HOSTNAME', flex: 2, cell: (z) => z.hostname },
];

/** `:logs` without an id: the pull zones with logging enabled; enter follows one. */
export function ZonePicker({ store, width, height }: { store: LogsStore; width: number; height: number }): React.JSX.Element {
  const picker = useSelect(store, (s) => s.picker);
  const ui = useUiStore();
  const tone = useTone();
  useEffect(() => store.getState().attach(null), [store]);
  useActions({ 'screen.refresh': () => void store.getState().loadPicker() });
  const note = picker.withoutLogging ? ` · ${picker.withoutLogging} zone${picker.withoutLogging === 1 ? '' : 's'} without logging not listed` : '';
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text wrap="truncate">
        <Text bold>Pull zones with logging</Text>
        <Text color={tone('muted')}>{`  enter: follow its logs${note}`}</Text>
      </Text>
      {picker.error ? <Text color={tone('error')} wrap="truncate">{`could not list the pull zones: ${picker.error} (r retries; :logs ID opens a zone directly)`}</Text> : null}
      <Table
        id="logs-zones"
        rows={picker.zones}
        columns={columns}
        width={width}
        height={Math.max(3, height - 1 - (picker.error ? 1 : 0))}
        emptyText={picker.loading || picker.loadedAt === null ? 'loading pull zones…' : 'no pull zone has logging enabled'}
        onOpen={(z) => ui.getState().navigate('logs', String(z.id))}
      />
    </Box>
  );
}
