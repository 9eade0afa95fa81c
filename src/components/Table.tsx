import React, { useEffect, useMemo, useRef } from 'react';
import { Box, Text } from 'ink';
import { useActions } from '../keys/input-hooks';
import {
  cellText,
  cellTone,
  clampViewport,
  columnWidths,
  COLUMN_GAP,
  defaultTableView,
  filterRows,
  formatRow,
  moveViewport,
  nextSortColumn,
  sortRows,
  tableViewKey,
  visibleRange,
  type Column,
  type NavMove,
  type TableView,
} from '../text/table-model';
import { useTableViews, useTableViewsState } from './table-views';
import { fit } from '../text/fit';
import type { RawRecord } from '../text/raw-record';
import {
  clampOffset,
  moveSideways,
  naturalWidths,
  shownCellText,
  sidewaysIndicator,
  sliceCells,
  wideLayout,
  windowPieces,
  type SideMove,
} from '../text/wide-columns';
import { TextField } from './TextField';
import { useTone } from './theme';

export type { Column, Cell } from '../text/table-model';

export interface TableProps<T> {
  /** Unique within the screen; selection, sort and filter are kept per screen visit and id. */
  id: string;
  rows: readonly T[];
  columns: Column<T>[];
  width: number;
  /** Lines for the whole table: header + rows + the footer line. */
  height: number;
  /** Enter on a row. */
  onOpen?: (row: T) => void;
  /** Told when the selected row changes (after filter and sort). */
  onSelect?: (row: T | null) => void;
  /** Only the focused table takes the navigation keys (default true). */
  focused?: boolean;
  /** `/` filters this table (default true). */
  filterable?: boolean;
  emptyText?: string;
  /** The selected row's record as the server sent it, for `d`; without it `d` says there is none. */
  record?: (row: T) => RawRecord | null;
}

const EMPTY: TableView = defaultTableView;

/**
 * A virtualized table: only the rows in the window become elements, so it costs the same with
 * 100 rows or 100,000. Filtering and sorting work on row indices and run only when the rows,
 * the filter text or the sort change.
 */
export function Table<T>(props: TableProps<T>): React.JSX.Element {
  const { rows, columns, width, height, focused = true, filterable = true } = props;
  const { store: ui, scope } = useTableViews();
  const viewKey = tableViewKey(scope, props.id);
  const view = useTableViewsState(ui, (s) => s.views[viewKey] ?? EMPTY);
  const filter = useTableViewsState(ui, (s) => s.filters[viewKey]);
  const editing = useTableViewsState(ui, (s) => s.editingFilter === viewKey);
  const tone = useTone();
  const query = filter?.text.value ?? '';

  const sortColumn = columns.find((c) => c.id === view.sortColumn) ?? null;
  const filtered = useMemo(() => filterRows(rows, columns, query), [rows, columns, query]);
  const order = useMemo(() => (sortColumn ? sortRows(rows, filtered, sortColumn, view.sortDesc) : filtered), [rows, filtered, sortColumn, view.sortDesc]);
  const total = order ? order.length : rows.length;
  const rowAt = (i: number): T => rows[order ? order[i]! : i]!;

  const showFooter = height >= 3;
  const bodyHeight = Math.max(0, height - 1 - (showFooter ? 1 : 0));
  const vp = clampViewport(view, total, bodyHeight);
  const selectedRow = total > 0 ? rowAt(vp.selected) : null;

  useEffect(() => {
    props.onSelect?.(selectedRow);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedRow]);

  // Keys can arrive faster than React renders (several in one read), so handlers read the
  // current view from the store and the current rows from a ref, never from this render's closure.
  const [start, end] = visibleRange(vp, total, bodyHeight);
  const wide = view.wide === true;
  const headerCells = columns.map((c) => (c.id === view.sortColumn ? `${c.header}${view.sortDesc ? '↓' : '↑'}` : c.header));
  // Wide mode: each column as wide as its widest cell on screen (and never narrower than it was,
  // so columns do not jump while scrolling down); only the visible rows are measured.
  const grown = useRef<{ columns: Column<T>[]; widths: number[] } | null>(null);
  let layout = null;
  let shownTexts: string[][] = [];
  if (wide) {
    shownTexts = [];
    for (let i = start; i < end; i++) {
      const row = rowAt(i);
      shownTexts.push(columns.map((c) => shownCellText(cellText(c.cell(row)))));
    }
    const before = grown.current?.columns === columns ? grown.current.widths : [];
    const widths = naturalWidths(headerCells, shownTexts, before);
    grown.current = { columns, widths };
    layout = wideLayout(widths, COLUMN_GAP);
  } else if (grown.current) grown.current = null;
  const hOffset = layout ? clampOffset(view.hOffset ?? 0, layout, width) : 0;

  const live = useRef({ total, bodyHeight, rowAt, columns, onOpen: props.onOpen, query, record: props.record, layout, width });
  live.current = { total, bodyHeight, rowAt, columns, onOpen: props.onOpen, query, record: props.record, layout, width };
  const current = () => {
    const l = live.current;
    const v = ui.getState().views[viewKey] ?? EMPTY;
    return { l, v, vp: clampViewport(v, l.total, l.bodyHeight) };
  };
  const move = (m: NavMove) => {
    const { l, vp: now } = current();
    ui.getState().setView(viewKey, moveViewport(now, m, l.total, l.bodyHeight));
  };
  const notWide = () => (current().v.wide ? null : 'wide mode is off: w turns it on');
  const side = (m: SideMove) => ({
    disabledReason: notWide,
    run: () => {
      const { l, v } = current();
      if (!l.layout) return false;
      ui.getState().setView(viewKey, { hOffset: moveSideways(v.hOffset ?? 0, m, l.layout, l.width) });
      return true;
    },
  });

  useActions(
    {
      'nav.down': () => move('down'),
      'nav.up': () => move('up'),
      'nav.top': () => move('top'),
      'nav.bottom': () => move('bottom'),
      'nav.pageDown': () => move('pageDown'),
      'nav.pageUp': () => move('pageUp'),
      'list.sort': () => {
        const { l, v } = current();
        ui.getState().setView(viewKey, { sortColumn: nextSortColumn(l.columns, v.sortColumn), sortDesc: false });
      },
      'list.raw': {
        disabledReason: () => {
          const { l, vp: now } = current();
          if (!l.record) return 'this table has no server record behind its rows';
          if (l.total === 0) return 'no row selected';
          return l.record(l.rowAt(now.selected)) ? null : 'this row has no server record';
        },
        run: () => {
          const { l, vp: now } = current();
          const record = l.total > 0 && l.record ? l.record(l.rowAt(now.selected)) : null;
          if (!record) return false;
          ui.getState().showRecord(record);
          return true;
        },
      },
      'list.wide': () => {
        const { v } = current();
        ui.getState().setView(viewKey, { wide: !v.wide, hOffset: 0 });
      },
      'list.left': side('left'),
      'list.right': side('right'),
      'list.pageLeft': side('pageLeft'),
      'list.pageRight': side('pageRight'),
      'list.firstColumn': side('first'),
      'list.lastColumn': side('last'),
      'list.sortReverse': {
        disabledReason: () => (current().v.sortColumn === null ? 'not sorted yet: press s to sort by a column' : null),
        run: () => ui.getState().setView(viewKey, { sortDesc: !current().v.sortDesc }),
      },
      ...(props.onOpen
        ? {
            'list.open': () => {
              const { l, vp: now } = current();
              if (l.total === 0 || !l.onOpen) return false;
              l.onOpen(l.rowAt(now.selected));
              return true;
            },
          }
        : {}),
      ...(filterable
        ? {
            'list.filter': () => ui.getState().startFilter(viewKey),
            // esc clears a kept filter before it goes back a screen
            'app.back': () => {
              if ((ui.getState().filters[viewKey]?.text.value ?? '') === '') return false;
              ui.getState().clearFilter(viewKey);
              return true;
            },
          }
        : {}),
    },
    { enabled: focused },
  );

  const widths = columnWidths(columns, width);
  const aligns = columns.map((c) => c.align);
  const lines: React.ReactNode[] = [];
  for (let i = start; i < end; i++) {
    const row = rowAt(i);
    const selected = focused && i === vp.selected;
    const cells = columns.map((c) => c.cell(row));
    if (layout) {
      const pieces = windowPieces(shownTexts[i - start]!, layout, aligns, hOffset, width, COLUMN_GAP);
      lines.push(
        <Text key={i} inverse={selected} wrap="truncate">
          {pieces.map((p) => (
            <Text key={p.column} color={tone(cellTone(cells[p.column]))}>
              {p.text}
            </Text>
          ))}
        </Text>,
      );
      continue;
    }
    lines.push(
      <Text key={i} inverse={selected} wrap="truncate">
        {cells.map((cell, ci) => {
          const text = fit(cellText(cell), widths[ci] ?? 0, aligns[ci] ?? 'left');
          const gap = ci < cells.length - 1 ? ' '.repeat(COLUMN_GAP) : '';
          const color = tone(cellTone(cell));
          return (
            <Text key={ci} color={color}>
              {text}
              {gap}
            </Text>
          );
        })}
      </Text>,
    );
  }
  const empty = total === 0;

  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text bold wrap="truncate">
        {layout ? sliceCells(formatRow(headerCells, layout.widths, aligns), hOffset, width) : formatRow(headerCells, widths, aligns)}
      </Text>
      <Box flexDirection="column" height={bodyHeight} overflow="hidden">
        {empty ? (
          <Text color={tone('muted')} wrap="truncate">
            {query ? `no rows match "${query}"` : (props.emptyText ?? 'no rows')}
          </Text>
        ) : (
          lines
        )}
      </Box>
      {showFooter ? (
        <Box height={1} overflow="hidden">
          {editing && filter ? (
            <Box>
              <Text color={tone('accent')}>/</Text>
              <TextField state={filter.text} width={Math.max(10, Math.floor(width / 2))} focused />
            </Box>
          ) : query ? (
            <Text color={tone('accent')} wrap="truncate">{`/${query}  (esc clears)`}</Text>
          ) : null}
          <Box flexGrow={1} justifyContent="flex-end">
            <Text color={tone('muted')} wrap="truncate">
              {empty ? `0 of ${rows.length}` : `${vp.selected + 1} of ${total}${order && filtered ? ` (filtered from ${rows.length})` : ''}`}
              {sortColumn ? `  sorted by ${sortColumn.header.toLowerCase()} ${view.sortDesc ? '↓' : '↑'}` : ''}
              {layout ? `  wide ${sidewaysIndicator(layout, hOffset, width)}` : ''}
            </Text>
          </Box>
        </Box>
      ) : null}
    </Box>
  );
}
