import React, { createContext, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { Box, Text } from 'ink';
import { type ScreenProps, useScreenInstance } from '../screen-def';
import { useTheme, useTone, type Tone } from '../../components/theme';
import { useNow } from '../../components/use-now';
import { PRIORITY } from '../../keys/input-router';
import { useActions, useInputLayer } from '../../keys/input-hooks';
import { useSelect, useConsole, useUi, useUiStore } from '../../state/store-hooks';
import { tableViewKey } from '../../text/table-model';
import { resultRowRecord } from './result-record';
import { createLogsSqlStore, createSqlStore, createStoreSqlStore, type SqlStore } from '../../state/sql/store';
import { createLogsStore } from '../../state/logs/store';
import { logsHeader, storeHeader } from './logs-header';
import { ansiLine } from './ansi-line';
import { terminalSafe } from '../../text/terminal-safe';
import { browseWindow, browsedEntry, editorLines, markSelected, transcriptWindow, type ViewKind, type ViewLine } from './transcript-view';
import { clampRow, moveRow, rowLayout, type RowMove } from './row-cursor';
import { LEAVE_HINT } from '../../state/sql/editor-keys';

/** `burrow sql` gives the screen its own store (standalone options); the console uses the session's. */
export const SqlStoreContext = createContext<SqlStore | null>(null);

/** `:sql logs` and `:sql store` run on the logs screen's records and on ClickHouse, each with a store (transcript, history) of its own. */
function useSqlStore(onLogs: boolean, onStore: boolean): SqlStore {
  const own = useContext(SqlStoreContext);
  const { stores } = useConsole();
  if (onLogs) return stores.get(createLogsSqlStore);
  if (onStore) return stores.get(createStoreSqlStore);
  return own ?? stores.get(createSqlStore);
}

/**
 * The logs shell: its table mirrors the logs store's buffer, and while the shell is open the
 * logs screen's follow goes on (the logs screen is not mounted under it), so new records arrive.
 */
function useLogsTable(store: SqlStore, onLogs: boolean): { noLogsScreen: boolean } {
  const { stores } = useConsole();
  const [noLogsScreen, setNoLogsScreen] = useState(false);
  useEffect(() => {
    if (!onLogs) return;
    const logs = stores.get(createLogsStore);
    store.getState().bindLogs(() => logs.getState().recordBuffer());
    const zones = logs.getState().zones;
    // no logs screen was opened: the table is empty for that reason, which the header says
    setNoLogsScreen(zones.length === 0);
    const detach = zones.length > 0 ? logs.getState().attach(zones.join(' ')) : null;
    store.getState().start();
    // from here on the table follows the buffer, also while the logs screen is back on top
    // (syncs are incremental and sliced), so the next Q shows it current at once
    store.getState().followLogs(true);
    return () => detach?.();
  }, [store, stores, onLogs]);
  return { noLogsScreen };
}

const TONES: Partial<Record<ViewKind, Tone>> = {
  prompt: 'accent',
  ok: 'ok',
  info: 'info',
  warn: 'warn',
  error: 'error',
  muted: 'muted',
  border: 'muted',
  blob: 'accent',
};

function Line({ line }: { line: ViewLine }): React.JSX.Element {
  const tone = useTone();
  // an empty <Text> has no height in Ink: a blank line needs a space
  if (line.every((s) => s.text === '')) return <Text> </Text>;
  return (
    <Text wrap="truncate">
      {line.map((s, i) => (
        <Text key={i} color={tone(TONES[s.kind])} dimColor={s.kind === 'null'} bold={s.kind === 'header'} inverse={s.kind === 'cursor'}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}

/** One line as one <Text> (its styles built in): the same text is the same string, so memo skips it. */
const Row = React.memo(function Row({ text }: { text: string }): React.JSX.Element {
  // an empty <Text> has no height in Ink: a blank line needs a space
  return <Text wrap="truncate">{text === '' ? ' ' : text}</Text>;
});

/**
 * Rows are keyed by place: a new page then updates the text of the same elements (cheaper in Ink
 * than removing and adding them), and a line that stays put (the header) is skipped by memo.
 */
const NO_LINES: ReadonlySet<number> = new Set();

/** The selected row's lines are drawn in reverse video; without colours they start with `>`. */
const Lines = React.memo(function Lines({
  lines,
  height,
  selected = NO_LINES,
}: {
  lines: ViewLine[];
  height: number;
  selected?: ReadonlySet<number>;
}): React.JSX.Element {
  const tone = useTone();
  const { color: styled } = useTheme();
  const color = (kind: ViewKind) => tone(TONES[kind]);
  const text = (l: ViewLine, i: number) => {
    if (!selected.has(i)) return ansiLine(l, color, styled);
    return styled ? `\x1b[7m${ansiLine(l, color, styled)}\x1b[27m` : ansiLine(markSelected(l), color, styled);
  };
  // the lines are cut to the width already: clipping only rows spares Ink slicing every line
  return (
    <Box flexDirection="column" height={height} overflowY="hidden">
      {lines.map((l, i) => (
        <Row key={i} text={text(l, i)} />
      ))}
    </Box>
  );
});

function Badge({ text, tone: t }: { text: string; tone: Tone }): React.JSX.Element {
  const { color } = useTheme();
  const tone = useTone();
  if (!color) return <Text bold>{`[${text}]`}</Text>;
  return (
    <Text bold color="black" backgroundColor={tone(t)}>
      {` ${text} `}
    </Text>
  );
}

const SPINNER = ['◐', '◓', '◑', '◒'];

function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

/**
 * The SQL shell: a transcript of inputs and results above a multi-line input. esc moves the
 * keyboard to the results (full screen, paged and scrolled sideways); esc again leaves.
 */
export function SqlScreen({ width, height }: ScreenProps): React.JSX.Element {
  const instance = useScreenInstance();
  const onLogs = instance.arg === 'logs';
  const store = useSqlStore(onLogs, instance.arg === 'store');
  const { noLogsScreen } = useLogsTable(store, onLogs);
  const ui = useUiStore();
  const logsTable = useSelect(store, (s) => s.logs);
  const logStore = useSelect(store, (s) => s.store);
  const tone = useTone();
  const phase = useSelect(store, (s) => s.phase);
  const connectError = useSelect(store, (s) => s.connectError);
  const label = useSelect(store, (s) => s.label);
  const status = useSelect(store, (s) => s.status);
  const editor = useSelect(store, (s) => s.editor);
  const focus = useSelect(store, (s) => s.focus);
  const search = useSelect(store, (s) => s.search);
  const history = useSelect(store, (s) => s.history);
  const completions = useSelect(store, (s) => s.completions);
  const entries = useSelect(store, (s) => s.entries);
  const scroll = useSelect(store, (s) => s.scroll);
  const browse = useSelect(store, (s) => s.browse);
  const mode = useSelect(store, (s) => s.mode);
  const timer = useSelect(store, (s) => s.timer);
  const outputFile = useSelect(store, (s) => s.outputFile);
  const running = useSelect(store, (s) => s.running);
  const queued = useSelect(store, (s) => s.queued);
  const leavePrompt = useSelect(store, (s) => s.leavePrompt);
  // re-render twice a second while something counts; read the clock itself when drawing
  useNow(running || status?.transaction ? 500 : 60_000);
  const now = Date.now();

  useEffect(() => {
    // a visit starts at the input, even when the last one ended in the results
    store.getState().setFocus('editor');
    store.getState().start();
  }, [store]);

  const get = () => store.getState();
  useInputLayer(
    {
      id: `sql:editor:${instance.key}`,
      priority: PRIORITY.field,
      active: () => get().focus === 'editor' && get().leavePrompt === null && get().phase !== 'failed',
      chain: () => ['sql', 'always'],
      text: (ev) => get().key(ev),
    },
    {
      'sql.complete': () => get().tab(),
      'sql.search': () => get().reverseSearch(),
      'app.interrupt': () => get().interrupt(),
    },
  );
  useInputLayer(
    {
      id: `sql:leave:${instance.key}`,
      priority: PRIORITY.field + 1,
      active: () => get().leavePrompt !== null,
      chain: () => ['always'],
      text: (ev) => {
        const k = ev.text?.toLowerCase() ?? ev.name;
        if (k === 'c') void get().answerLeave('commit');
        else if (k === 'r') void get().answerLeave('rollback');
        else if (k === 's' || k === 'esc' || k === 'n') void get().answerLeave('stay');
        return true;
      },
    },
    {
      'app.interrupt': () => get().interruptLeave(),
    },
  );

  const promptText = `${label}${status?.transaction ? '*' : ''}>`;
  const inEditor = focus === 'editor';
  const extraLine = leavePrompt !== null || (inEditor && (completions !== null || queued > 0 || running !== null)) ? 1 : 0;
  const maxEditor = Math.max(1, Math.min(8, Math.floor((height - 3) / 3)));
  const edLines = inEditor ? (search ? 1 : Math.min(maxEditor, editor.text.split('\n').length)) : 0;
  const bodyHeight = Math.max(1, height - 1 - edLines - extraLine);
  const preview = Math.max(3, bodyHeight - 6);

  useEffect(() => {
    store.getState().setPageLines(bodyHeight);
  }, [store, bodyHeight]);

  const transcript = useMemo(
    () => (inEditor ? transcriptWindow(entries, width, bodyHeight, scroll, preview) : null),
    [inEditor, entries, width, bodyHeight, scroll, preview],
  );
  const browsed = useMemo(() => (inEditor ? null : browsedEntry(entries, browse.entryId)), [inEditor, entries, browse.entryId]);
  // wide mode (w): result cells at full width instead of cut at 60 cells
  const wideKey = tableViewKey(instance.key, 'results');
  const wide = useUi((u) => u.views[wideKey]?.wide === true);
  const browseView = useMemo(
    () => (inEditor ? null : browseWindow(browsed, width, bodyHeight, browse.top, browse.h, wide ? 0 : 60, browse.row)),
    [inEditor, browsed, width, bodyHeight, browse.top, browse.h, wide, browse.row],
  );
  const live = useRef(browseView);
  live.current = browseView;

  // Results (browse) keys: in the screen layer, which has the keyboard when the editor does not.
  // A result moves its selected row (the window follows); text and lists scroll.
  const move = (f: (top: number, v: NonNullable<typeof browseView>) => number, rows: RowMove) => {
    const v = live.current;
    if (!v) return false;
    const layout = v.row === null ? null : rowLayout(browsedEntry(get().entries, get().browse.entryId));
    if (layout && v.row !== null) {
      // from the store, not the last render: keys can come faster than renders
      const { row, top } = get().browse;
      get().browseMove(moveRow({ row, top }, rows, layout, { room: v.room, maxTop: v.maxTop }));
      return true;
    }
    const cur = Math.min(get().browse.top, v.maxTop);
    get().browseMove({ top: Math.max(0, Math.min(v.maxTop, f(cur, v))) });
    return true;
  };
  const side = (d: number) => {
    const v = live.current;
    if (!v) return false;
    const cur = Math.min(get().browse.h, v.hPositions - 1);
    get().browseMove({ h: Math.max(0, Math.min(v.hPositions - 1, cur + d)) });
    return true;
  };
  /** The selected row's raw record (from the store: keys can come faster than renders). */
  const selectedRecord = () => {
    if (get().focus !== 'results') return null;
    const entry = browsedEntry(get().entries, get().browse.entryId);
    const layout = rowLayout(entry);
    return layout && layout.rows > 0 ? resultRowRecord(entry, clampRow(get().browse.row, layout)) : null;
  };
  useActions({
    'nav.down': () => move((t) => t + 1, { by: 1 }),
    'nav.up': () => move((t) => t - 1, { by: -1 }),
    'nav.pageDown': () => move((t, v) => t + Math.max(1, v.bodyHeight - 4), { pages: 1 }),
    'nav.pageUp': () => move((t, v) => t - Math.max(1, v.bodyHeight - 4), { pages: -1 }),
    'nav.top': () => move(() => 0, { to: 'first' }),
    'nav.bottom': () => move((_, v) => v.maxTop, { to: 'last' }),
    'sql.left': () => side(-1),
    'sql.right': () => side(1),
    'list.left': () => side(-1),
    'list.right': () => side(1),
    'list.pageLeft': () => side(-5),
    'list.pageRight': () => side(5),
    'list.firstColumn': () => side(-1_000_000),
    'list.lastColumn': () => side(1_000_000),
    'list.wide': () => {
      const on = !ui.getState().views[wideKey]?.wide;
      ui.getState().setView(wideKey, { wide: on });
      ui.getState().setStatus(on ? 'wide: cells at full width' : 'cells cut at 60 cells again', 'info', 3000);
    },
    'list.raw': {
      disabledReason: () => {
        const record = selectedRecord();
        if (record === 'loading') return `row ${(get().browse.row + 1).toLocaleString('en-US')} is still being read: d again in a moment`;
        return record ? null : 'no result row here: browse a result set with rows';
      },
      run: () => {
        const record = selectedRecord();
        if (!record || record === 'loading') return false;
        ui.getState().showRecord(record);
        return true;
      },
    },
    'sql.expanded': () => get().toggleBrowsedExpanded(),
    'sql.prevResult': () => get().browseEntry(-1),
    'sql.nextResult': () => get().browseEntry(1),
    'sql.edit': () => get().setFocus('editor'),
    'sql.complete': () => {
      get().setFocus('editor');
      get().tab();
    },
    'sql.search': () => {
      get().setFocus('editor');
      get().reverseSearch();
    },
    // leaving with an open transaction asks first: commit, roll back or stay
    'app.back': () => {
      // on the only screen (burrow sql) esc has nowhere to go: nothing to ask
      if (!get().status?.transaction || ui.getState().stack.length <= 1) return false;
      get().leave('back');
      return true;
    },
    'app.quit': () => {
      if (!get().status?.transaction) return false;
      get().leave('quit');
      return true;
    },
    // never quits from the shell: cancels what runs, otherwise says how to leave
    'app.interrupt': () => {
      if (get().running) get().cancel();
      else ui.getState().setStatus(LEAVE_HINT, 'info', 4000);
      return true;
    },
  });

  // the status line: database, transaction, token, then what is going on
  const tx = status?.transaction ? `TX open ${age(now - status.transaction.since)}` : null;
  const readOnlyToken = status?.tokenAccess === 'read-only';
  const right = running
    ? `running ${(Math.max(0, now - running.since) / 1000).toFixed(1)} s… ctrl-c cancels`
    : `${outputFile ? `→ ${outputFile} · ` : ''}mode ${mode} · timer ${timer ? 'on' : 'off'}${inEditor ? '' : ' · i input · esc back'}`;

  const statusLine = (
    <Box width={width} height={1} overflow="hidden">
      {logsTable || logStore ? null : <Text bold color={tone('accent')}>{`${label} `}</Text>}
      {logStore ? <Text color={tone(logStore.error ? 'error' : 'info')} wrap="truncate">{`${storeHeader(logStore)} `}</Text> : null}
      {logsTable ? <Text color={tone(logsTable.error ? 'error' : 'info')} wrap="truncate">{`${logsHeader(logsTable, noLogsScreen)} `}</Text> : null}
      {tx ? <Badge text={tx} tone="warn" /> : null}
      {tx ? <Text> </Text> : null}
      {readOnlyToken ? <Badge text="READ-ONLY" tone="info" /> : null}
      <Box flexGrow={1} justifyContent="flex-end">
        <Text color={tone(running ? 'warn' : 'muted')} wrap="truncate">
          {right}
        </Text>
      </Box>
    </Box>
  );

  if (phase === 'failed') {
    return (
      <Box flexDirection="column" width={width} height={height} overflow="hidden">
        {statusLine}
        <Text color={tone('error')} wrap="wrap">{`cannot open the SQL shell: ${terminalSafe(connectError ?? 'unknown error')}`}</Text>
      </Box>
    );
  }

  let extra: React.JSX.Element | null = null;
  if (leavePrompt) {
    const since = status?.transaction ? ` (open ${age(now - status.transaction.since)})` : '';
    extra = (
      <Text color={tone('warn')} bold wrap="truncate">
        {`A transaction is open${since}: c commit · r roll back · s stay`}
      </Text>
    );
  } else if (inEditor && completions !== null) {
    extra = (
      <Text color={tone('muted')} wrap="truncate">
        {completions.length ? completions.join('  ') : 'no completion here'}
      </Text>
    );
  } else if (inEditor && running) {
    // as pgcli: the statement running and for how long, just above where the next one is typed
    const waiting = queued > 0 ? ` · ${queued} input${queued === 1 ? '' : 's'} queued behind it` : '';
    extra = (
      <Text color={tone('warn')} wrap="truncate">
        {`${SPINNER[Math.floor(now / 500) % SPINNER.length]} running ${(Math.max(0, now - running.since) / 1000).toFixed(1)} s: ${terminalSafe(running.what.replace(/\s+/g, ' '))}${waiting} · ctrl-c cancels`}
      </Text>
    );
  } else if (inEditor && queued > 0) {
    extra = <Text color={tone('muted')}>{`${queued} input${queued === 1 ? '' : 's'} queued behind the running one`}</Text>;
  }

  let editorView: ViewLine[] = [];
  if (inEditor && search) {
    const match = search.match >= 0 ? history[search.match]!.replace(/\s*\n\s*/g, ' ') : '';
    editorView = [
      [
        { text: `(${search.failed ? 'failed ' : ''}reverse-i-search)'`, kind: 'prompt' },
        { text: search.query, kind: 'text' },
        { text: `': ${match}`, kind: search.failed ? 'warn' : 'text' },
      ],
    ];
  } else if (inEditor) {
    editorView = editorLines(editor, promptText, width, maxEditor, leavePrompt === null);
  }

  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {statusLine}
      {inEditor ? (
        <Box flexDirection="column" height={bodyHeight} overflow="hidden" justifyContent="flex-end">
          <Lines lines={transcript!.lines} height={Math.min(bodyHeight, Math.max(1, transcript!.lines.length))} />
        </Box>
      ) : (
        <Box flexDirection="column" height={bodyHeight} overflow="hidden">
          <Lines lines={browseView!.lines} height={bodyHeight - 1} selected={browseView!.selected} />
          <Text color={tone('muted')} wrap="truncate">
            {`${browseView!.footer}${wide ? ' · wide (w: cut at 60 cells)' : ''}`}
          </Text>
        </Box>
      )}
      {extra}
      {editorView.map((l, i) => (
        <Line key={i} line={l} />
      ))}
    </Box>
  );
}
