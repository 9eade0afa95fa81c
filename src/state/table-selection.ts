import { defaultTableView, filterRows, sortRows, type Column } from '../text/table-model';
import type { UiState } from './ui-store';

/**
 * The row a <Table id=...> has selected, computed from the ui store at key time (the same
 * filter, sort and clamp the Table applies), so a key typed right after a move acts on the
 * row the move selected even before React rendered it. `index` is the row's place in `rows`,
 * `position` its place among the `shown` rows (after filter and sort).
 */
export function selectedRowOf<T>(
  ui: Pick<UiState, 'views' | 'filters'>,
  viewKey: string,
  rows: readonly T[],
  columns: readonly Column<T>[],
): { row: T; index: number; position: number; shown: number } | null {
  const view = ui.views[viewKey] ?? defaultTableView;
  const query = ui.filters[viewKey]?.text.value ?? '';
  const filtered = filterRows(rows, columns, query);
  const column = columns.find((c) => c.id === view.sortColumn);
  const order = column ? sortRows(rows, filtered, column, view.sortDesc) : filtered;
  const total = order ? order.length : rows.length;
  if (total === 0) return null;
  const at = Math.min(Math.max(0, view.selected), total - 1);
  const index = order ? order[at]! : at;
  return { row: rows[index]!, index, position: at, shown: total };
}
