import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { TextState } from '../keys/text-edit';
import type { RawRecord } from '../text/raw-record';
import type { TableView } from '../text/table-model';

/**
 * Where tables keep selection, sort and filter while their screen is hidden. The app hands the
 * ui store in; this narrow shape is all a Table needs of it.
 */
export interface TableViewsState {
  views: Record<string, TableView>;
  filters: Record<string, { text: TextState }>;
  /** The table whose filter field has the keyboard, or null. */
  editingFilter: string | null;
  setView(viewKey: string, patch: Partial<TableView>): void;
  startFilter(viewKey: string): void;
  clearFilter(viewKey: string): void;
  /** Opens the raw view of one row (`d`). */
  showRecord(record: RawRecord): void;
}

export type TableViewsStore = Pick<StoreApi<TableViewsState>, 'getState' | 'getInitialState' | 'subscribe'>;

export const TableViewsContext = createContext<TableViewsStore | null>(null);

/** Which screen visit the tables below belong to: two visits keep separate views. */
export const TableScopeContext = createContext<string | null>(null);

export function useTableViews(): { store: TableViewsStore; scope: string } {
  const store = useContext(TableViewsContext);
  const scope = useContext(TableScopeContext);
  if (!store || scope === null) throw new Error('a Table needs TableViewsContext and TableScopeContext above it');
  return { store, scope };
}

export function useTableViewsState<T>(store: TableViewsStore, selector: (s: TableViewsState) => T): T {
  return useStore(store, selector);
}
