import React, { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import { Table, type Column } from '../../components/Table';
import { useTone } from '../../components/theme';
import { useActions } from '../../keys/input-hooks';
import type { LogsStore, PickerZone } from '../../state/logs/store';
import { pickerZoneSource, togglePicked, zonesToOpen } from '../../state/logs/picker';
import { serverRecord } from '../server-record';
import { MAX_ZONES, zoneListArg } from '../../state/logs/zone-set';
import { useSelect, useUiStore } from '../../state/store-hooks';
import { selectedRowOf } from '../../state/table-selection';
import { tableViewKey } from '../../text/table-model';
import { useScreenInstance } from '../screen-def';

const TABLE_ID = 'logs-zones';

/** The columns, a selected zone's id marked with ✓. */
function pickerColumns(picked: readonly number[]): Column<PickerZone>[] {
  return [
    { id: 'id', header: 'ID', width: 8, cell: (z) => (picked.includes(z.id) ? { text: `${z.id} ✓`, tone: 'accent' } : z.id), sortValue: (z) => z.id },
    { id: 'name', header: 'NAME', flex: 1, cell: (z) => z.name },
    { id: 'host', header: 'HOSTNAME', flex: 2, cell: (z) => z.hostname },
  ];
}

/**
 * `:logs` without an id: the pull zones with logging enabled. Enter follows the zone under the
 * cursor; space selects several (their ids marked ✓) and enter then follows them merged.
 */
export function ZonePicker({ store, width, height }: { store: LogsStore; width: number; height: number }): React.JSX.Element {
  const picker = useSelect(store, (s) => s.picker);
  const ui = useUiStore();
  const tone = useTone();
  const instance = useScreenInstance();
  const [picked, setPicked] = useState<number[]>([]);
  const columns = useMemo(() => pickerColumns(picked), [picked]);
  // keys can come faster than renders: the handler reads the selection and the row under the
  // cursor now (the table's view in the ui store), not from this render's closure
  const live = useRef({ picked, columns });
  live.current = { picked, columns };
  useEffect(() => store.getState().attach(null), [store]);
  useActions({
    'screen.refresh': () => void store.getState().loadPicker(),
    'logs.pickZone': () => {
      const { picked: now, columns: cols } = live.current;
      const z = selectedRowOf(ui.getState(), tableViewKey(instance.key, TABLE_ID), store.getState().picker.zones, cols)?.row ?? null;
      if (!z) return;
      if (!now.includes(z.id) && now.length >= MAX_ZONES) {
        ui.getState().setStatus(`at most ${MAX_ZONES} zones at once`, 'warn', 4000);
        return;
      }
      const next = togglePicked(now, z.id);
      live.current = { ...live.current, picked: next };
      setPicked(next);
    },
  });
  const note = picker.withoutLogging ? ` · ${picker.withoutLogging} zone${picker.withoutLogging === 1 ? '' : 's'} without logging not listed` : '';
  const hint = picked.length
    ? `  ${picked.length} selected (${picked.join(', ')}) · enter: follow them merged · space: select/unselect`
    : '  enter: follow its logs';
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text wrap="truncate">
        <Text bold>Pull zones with logging</Text>
        <Text color={tone(picked.length ? 'accent' : 'muted')}>{hint}</Text>
        <Text color={tone('muted')}>{`${note}${picked.length ? '' : ' · space: select several'}`}</Text>
      </Text>
      {picker.error ? (
        <Text color={tone('error')} wrap="truncate">{`could not list the pull zones: ${picker.error} (r retries; :logs ID opens a zone directly)`}</Text>
      ) : null}
      <Table
        id={TABLE_ID}
        rows={picker.zones}
        columns={columns}
        width={width}
        height={Math.max(3, height - 1 - (picker.error ? 1 : 0))}
        emptyText={picker.loading || picker.loadedAt === null ? 'loading pull zones…' : 'no pull zone has logging enabled'}
        record={(z) => {
          const source = pickerZoneSource(z);
          return source ? serverRecord(`pull zone ${z.id} ${z.name}`, source) : null;
        }}
        onOpen={(z) => ui.getState().open('logs', zoneListArg(zonesToOpen(live.current.picked, z.id)))}
      />
    </Box>
  );
}
