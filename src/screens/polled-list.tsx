import React, { useEffect } from 'react';
import { Box } from 'ink';
import type { StoreApi } from 'zustand/vanilla';
import { Table, type TableProps } from '../components/Table';
import { emptyListText, ListTitle } from '../components/ListTitle';
import { useActions } from '../keys/input-hooks';
import type { PolledList } from '../state/polled-slice';
import { useSelect } from '../state/store-hooks';

/** A polled list's screen keys: watch while mounted, r refreshes, p pauses. */
export function usePolledList<T>(store: StoreApi<PolledList<T>>): void {
  useEffect(() => store.getState().watch(), [store]);
  useActions({
    'screen.refresh': () => void store.getState().refresh(),
    'screen.pause': () => store.getState().togglePause(),
  });
}

export interface PolledListViewProps<T> extends Pick<TableProps<T>, 'columns' | 'width' | 'height' | 'onOpen' | 'onSelect' | 'record'> {
  store: StoreApi<PolledList<T>>;
  /** The table's id (its view state: sort, filter, selection). */
  id: string;
  title: string;
  noun: readonly [one: string, several: string];
  hint?: string;
  /** The empty table's text once loaded (`no databases`). */
  none: string;
  /** More errors after the list's own (an action that failed). */
  errors?: readonly (string | null | undefined)[];
}

/** A list screen's body: the title (count, hint, loading, errors) over the renderer's table. */
export function PolledListView<T>({ store, id, title, noun, hint, none, errors = [], width, height, ...table }: PolledListViewProps<T>): React.JSX.Element {
  const rows = useSelect(store, (s) => s.rows);
  const loadedAt = useSelect(store, (s) => s.loadedAt);
  const error = useSelect(store, (s) => s.error);
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <ListTitle title={title} loading={loadedAt === null} count={rows.length} noun={noun} hint={hint} errors={[error, ...errors]} />
      <Table id={id} rows={rows} width={width} height={Math.max(3, height - 1)} emptyText={emptyListText(loadedAt, none)} {...table} />
    </Box>
  );
}
