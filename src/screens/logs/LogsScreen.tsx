import React, { useEffect, useMemo } from 'react';
import { Box, Text } from 'ink';
import { type ScreenDef, type ScreenProps, useScreenInstance } from '../screen-def';
import { useCopy } from '../../clipboard/use-clipboard';
import { TextField } from '../../components/TextField';
import { useTone } from '../../components/theme';
import { useNow } from '../../components/use-now';
import { PRIORITY } from '../../keys/input-router';
import { contextChain, keysOf } from '../../keys/keymap';
import { useActions, useInputLayer, useTextInput, useInputRouter } from '../../keys/input-hooks';
import { editText } from '../../keys/text-edit';
import { compilePattern } from '../../log-records/filter';
import { createLogsStore, FILTER_FIELDS, maskFor, type LogsStore, type WindowKey } from '../../state/logs/store';
import { describeDraft, describeWindow } from '../../state/logs/filter-form';
import { useDomainStore, useSelect, useConsole } from '../../state/store-hooks';
import { useStreamSideways } from './stream-sideways';
import { logsActions } from './actions';
import { DetailView } from './DetailView';
import { FilterForm } from './FilterForm';
import { joinParts, PartsLine } from './Parts';
import { compactStatsLines, statsLines } from './stats-view';
import { fixedStatusParts, liveStatusParts, titleParts, v1StatusParts } from './status-view';
import { BackfillBar } from './BackfillBar';
import { AlertBanner, bannerHeight } from './AlertBanner';
import { AlertPanel, useAlertPanelKeys } from './AlertPanel';
import { displayKey } from '../../keys/key-event';
import { StreamView } from './StreamView';
import { Timeline, TIMELINE_LINES } from './Timeline';
import { ZonePicker } from './ZonePicker';
import { zoneStripParts } from './zone-strip';
import { parseZoneList } from '../../state/logs/zone-set';
import { exportLabel, MARK_GUTTER, withMarks } from './marks-view';
import { TIME_FORMS_HINT } from '../../text/time-parse';
import { zoneLabel } from '../../text/time-format';
import { SCREEN_ALIASES } from '../../renderers/screen-names';
import { useCrumb } from '../use-crumb';

/** Stats beside the stream from this width on; below it when narrower. */
const STATS_BESIDE_FROM = 140;
const STATS_WIDTH = 46;

/**
 * Live CDN logs of one pull zone (`:logs ID`), or the zone picker (`:logs`). The records live in
 * the store's ring buffer; this component draws the window the store picked, so a frame costs
 * the same with 100 or 100,000 records.
 */
export function LogsScreen({ instance, width, height }: ScreenProps): React.JSX.Element {
  const store = useDomainStore(createLogsStore);
  if (instance.arg === null) return <ZonePicker store={store} width={width} height={height} />;
  return <ZoneLogs store={store} arg={instance.arg} width={width} height={height} />;
}

/** The breadcrumb of a logs visit: the zones by name ("logs shop-assets, api-gateway"), once known. */
function zonesCrumb(zones: readonly number[], names: Readonly<Record<number, string>>, single: string | null): string | null {
  if (zones.length === 1) return single ? `logs ${single}` : null;
  const named = zones.map((z) => names[z]);
  return named.length > 0 && named.every(Boolean) ? `logs ${named.join(', ')}` : null;
}

function ZoneLogs({ store, arg, width, height }: { store: LogsStore; arg: string; width: number; height: number }): React.JSX.Element {
  const tone = useTone();
  const copyToClipboard = useCopy();
  const session = useConsole();
  const ui = session.stores.deps.ui;
  const showSecrets = session.stores.deps.settings.showSecrets;
  const instance = useScreenInstance();
  const s = () => store.getState();

  const zoneId = useSelect(store, (x) => x.zoneId);
  const zoneName = useSelect(store, (x) => x.zoneName);
  const zones = useSelect(store, (x) => x.zones);
  const zoneNames = useSelect(store, (x) => x.zoneNames);
  const zoneProblem = useSelect(store, (x) => x.zoneProblem);
  useCrumb(zonesCrumb(zones, zoneNames, zoneName));
  const source = useSelect(store, (x) => x.source);
  const windowKey = useSelect(store, (x) => x.windowKey);
  const filter = useSelect(store, (x) => x.filter);
  const absolute = useSelect(store, (x) => x.absolute);
  const fixed = useSelect(store, (x) => x.fixed);
  const form = useSelect(store, (x) => x.form);
  const local = useSelect(store, (x) => x.local);
  const wrap = useSelect(store, (x) => x.wrap);
  const showStats = useSelect(store, (x) => x.showStats);
  const following = useSelect(store, (x) => x.following);
  const newWhilePaused = useSelect(store, (x) => x.newWhilePaused);
  const evictedWhilePaused = useSelect(store, (x) => x.evictedWhilePaused);
  const rowsEvicted = useSelect(store, (x) => x.rowsEvicted);
  const newMatches = useSelect(store, (x) => x.newMatchesWhilePaused);
  const view = useSelect(store, (x) => x.view);
  const layout = useSelect(store, (x) => x.layout);
  const live = useSelect(store, (x) => x.live);
  const v1 = useSelect(store, (x) => x.v1);
  const stats = useSelect(store, (x) => x.stats);
  const detail = useSelect(store, (x) => x.detail);
  const marks = useSelect(store, (x) => x.marks);
  const markCursor = useSelect(store, (x) => x.markCursor);
  const timelineOpen = useSelect(store, (x) => x.timeline.open);
  const alerts = store.getState().alerts;
  const notices = useSelect(alerts, (x) => x.notices);
  const alertPanel = useSelect(alerts, (x) => x.panel !== null);
  const router = useInputRouter();
  const now = useNow(1000);

  useEffect(() => s().attach(arg), [store, arg]); // eslint-disable-line react-hooks/exhaustive-deps

  // Layout: title, status, [stream header + rows | detail | form], [stats below], footer.
  const beside = showStats && width >= STATS_BESIDE_FROM;
  const below = showStats && !beside ? Math.min(compactStatsLines(zones.length), Math.max(0, height - 10)) : 0;
  const streamWidth = beside ? width - STATS_WIDTH - 1 : width;
  // with marks, each row starts with a cell for the mark glyph
  const gutter = marks.count > 0 ? MARK_GUTTER : 0;
  // several zones: a zone strip under the status line
  const strip = zones.length > 1 ? 1 : 0;
  const banner = bannerHeight(notices);
  // the timeline panel above the stream, when there is room for it and a few rows
  const room = height - 3 - strip - below - banner;
  const timelineHeight = timelineOpen && room >= TIMELINE_LINES + 4 ? TIMELINE_LINES : 0;
  // open but without room: one line says so, rather than the panel vanishing without a word
  const timelineNote =
    timelineOpen && timelineHeight === 0 && room >= 4
      ? `timeline hidden: ${TIMELINE_LINES + 4 - room} more row${TIMELINE_LINES + 4 - room === 1 ? '' : 's'} needed${below ? ' (i closes the stats below)' : ''} · T closes it`
      : null;
  const mainHeight = Math.max(2, height - 3 - strip - below - banner - timelineHeight - (timelineNote ? 1 : 0));
  const rowsHeight = Math.max(1, mainHeight - 1);

  useEffect(() => {
    s().setViewport(streamWidth - gutter, rowsHeight);
  }, [store, streamWidth, rowsHeight, gutter]); // eslint-disable-line react-hooks/exhaustive-deps

  const highlight = useMemo(() => {
    if (local.pattern === null) return null;
    const p = compilePattern(local.pattern);
    return p.ok ? p.all : null;
  }, [local.pattern]);

  const copy = (kind: 'id' | 'json') => {
    const r = s().copyText(kind);
    if ('error' in r) {
      ui.getState().setStatus(`nothing copied: ${r.error}`, 'warn', 4000);
      return;
    }
    const status = copyToClipboard(r.text, r.what);
    ui.getState().setStatus(status.text, status.level, 5000);
  };
  const nav = (kind: 'down' | 'up' | 'pageDown' | 'pageUp' | 'top' | 'bottom', lines: number) => {
    if (s().detail) s().scrollDetail(lines);
    else s().move(kind);
  };
  const win = (key: WindowKey) => () => s().setWindow(key);
  // the timeline's keys work while it has the focus; otherwise they pass on to the table
  const panel = (run: () => void) => () => {
    const t = s().timeline;
    if (!t.open || t.focus !== 'timeline') return false;
    run();
    return true;
  };
  // the same for the marks list of the stats panel
  const markList = (run: () => void) => () => {
    if (s().markCursor === null) return false;
    run();
    return true;
  };
  const sideways = useStreamSideways({
    store,
    instanceKey: instance.key,
    rows: view.rows,
    timeMode: layout.timeMode,
    width: streamWidth,
    zones: zones.length > 1,
  });

  useActions({
    'screen.pause': {
      disabledReason: () => (s().source === 'v1' ? 'a past day is a fixed file: there is no follow to pause' : null),
      run: () => s().togglePause(),
    },
    'screen.refresh': () => s().pollNow(),
    'nav.down': () => nav('down', 1),
    'nav.up': () => nav('up', -1),
    'nav.pageDown': () => nav('pageDown', rowsHeight - 1),
    'nav.pageUp': () => nav('pageUp', -(rowsHeight - 1)),
    'nav.top': () => nav('top', -1_000_000),
    'nav.bottom': () => nav('bottom', 1_000_000),
    'list.open': () => s().openDetail(),
    'list.filter': () => s().startLocalEdit(),
    // while a v1 day is read, esc and ctrl-c stop the read (what was read stays); then esc leaves the day
    'app.back': () => s().closeDetail() || s().stopV1() || s().clearLocal() || s().closeV1(),
    'app.interrupt': () => s().stopV1(),
    'logs.window1m': win('1m'),
    'logs.window5m': win('5m'),
    'logs.window15m': win('15m'),
    'logs.window1h': win('1h'),
    'logs.window3d': win('3d'),
    'logs.filters': () => s().openForm(),
    'logs.clearFilters': () => s().clearServerFilters(),
    'logs.mode': () => s().toggleLocalMode(),
    'logs.contextMore': () => s().changeContext(1),
    'logs.contextLess': () => s().changeContext(-1),
    'logs.nextMatch': () => s().jumpMatch(1),
    'logs.prevMatch': () => s().jumpMatch(-1),
    'logs.stats': () => s().toggleStats(),
    'logs.wrap': () => sideways.toggleWrap(),
    ...sideways.handlers,
    'logs.time': () => s().cycleTime(),
    'logs.copyId': () => copy('id'),
    'logs.copyJson': () => copy('json'),
    'logs.export': () => s().openExport(),
    'logs.v1': () => s().openV1(),
    'logs.sql': () => ui.getState().navigate('sql', 'logs'),
    'logs.timeJump': () => s().openTimeJump(),
    'logs.mark': () => s().toggleMark(),
    'logs.nextMark': () => s().jumpMark(1),
    'logs.prevMark': () => s().jumpMark(-1),
    'logs.clearMarks': () => s().clearMarks(),
    'logs.marksFocus': () => s().focusMarks(),
    'marks.down': markList(() => s().moveMarkCursor(1)),
    'marks.up': markList(() => s().moveMarkCursor(-1)),
    'marks.jump': markList(() => s().jumpToMarkCursor()),
    'marks.table': markList(() => void s().leaveMarks()),
    'logs.alerts': () => alerts.getState().openPanel(),
    'logs.ackAlert': () => alerts.getState().acknowledge(),
    'logs.pickZone': { run: () => undefined, disabledReason: () => 'space selects zones in the zone picker (:logs without an id)' },
    'logs.timeline': () => s().toggleTimeline(),
    'logs.timelineFocus': {
      disabledReason: () => (s().timeline.open ? null : 'the timeline is closed: T opens it'),
      run: () => void s().switchTimelineFocus(),
    },
    'timeline.older': panel(() => s().moveTimelineCursor(-1)),
    'timeline.newer': panel(() => s().moveTimelineCursor(1)),
    'timeline.zoomIn': panel(() => s().zoomTimeline(-1)),
    'timeline.zoomOut': panel(() => s().zoomTimeline(1)),
    'timeline.jump': panel(() => s().jumpToTimelineCursor()),
    'timeline.table': panel(() => void s().switchTimelineFocus('table')),
  });
  useAlertPanelKeys(alerts, instance.key);

  // The local pattern field (/), the export/v1 prompt and the filter form each take the keyboard.
  useTextInput({
    id: `logs:pattern:${instance.key}`,
    active: () => s().local.editing,
    get: () => s().local.text,
    set: (t) => s().setLocalText(t),
    handlers: { 'prompt.apply': () => s().applyLocal(), 'prompt.cancel': () => s().cancelLocalEdit() },
  });
  useInputLayer(
    {
      id: `logs:prompt:${instance.key}`,
      priority: PRIORITY.field,
      active: () => s().prompt !== null,
      chain: () => contextChain('prompt'),
      text: (ev) => {
        const p = s().prompt;
        if (!p) return false;
        if (ev.name === 'tab') {
          s().toggleExportFormat();
          return true;
        }
        if (ev.name === 'ctrl-t' && p.kind === 'export') {
          s().toggleExportMarked();
          return true;
        }
        const next = editText(p.text, ev);
        if (next) s().setPromptText(next);
        return next !== null;
      },
    },
    { 'prompt.apply': () => s().submitPrompt(), 'prompt.cancel': () => s().cancelPrompt() },
  );
  useInputLayer(
    {
      id: `logs:form:${instance.key}`,
      priority: PRIORITY.field,
      active: () => s().form !== null,
      chain: () => contextChain('prompt'),
      text: (ev) => {
        const f = s().form;
        if (!f) return false;
        if (ev.name === 'tab' || ev.name === 'down') s().focusField(1);
        else if (ev.name === 'shift-tab' || ev.name === 'up') s().focusField(-1);
        else {
          const next = editText(f.fields[FILTER_FIELDS[f.focus]!.id], ev);
          if (next) s().setFormText(next);
          return next !== null;
        }
        return true;
      },
    },
    { 'prompt.apply': () => void s().applyForm(), 'prompt.cancel': () => s().cancelForm() },
  );

  const title =
    zoneId === null
      ? []
      : titleParts({
          zoneId,
          zoneName,
          zones,
          zoneNames,
          source,
          windowKey,
          serverFilter: describeDraft(filter),
          windowText: absolute ? describeWindow(absolute, now) : undefined,
          local,
          wrap,
        });
  const status =
    source === 'v1' && v1
      ? v1StatusParts(v1, following)
      : fixed
        ? fixedStatusParts(fixed, following)
        : liveStatusParts(
            {
              following,
              newWhilePaused,
              evictedWhilePaused,
              rowsEvicted,
              newMatchesWhilePaused: newMatches,
              filtering: local.pattern !== null && local.mode === 'filter',
              live,
              windowKey,
              compact: width < 100,
            },
            now,
          );

  if (zoneProblem) {
    return (
      <Box flexDirection="column" width={width} height={height} overflow="hidden">
        <PartsLine parts={joinParts(title)} bold />
        <Text color={tone('error')} wrap="wrap">{`✖ ${zoneProblem}`}</Text>
      </Box>
    );
  }

  let main: React.JSX.Element;
  if (alertPanel) main = <AlertPanel alerts={alerts} width={streamWidth} height={mainHeight} />;
  else if (form) main = <FilterForm form={form} width={streamWidth} height={mainHeight} />;
  else if (detail)
    main = (
      <DetailView
        entry={detail.entry}
        scroll={detail.scroll}
        width={streamWidth}
        height={mainHeight}
        mask={maskFor(showSecrets)}
        zoneName={zoneNames[detail.entry.pullZoneId] ?? (zones.length === 1 ? zoneName : null)}
      />
    );
  else {
    const empty =
      source === 'v1' && v1?.loading
        ? `reading the v1 day ${v1.date}…`
        : local.pattern !== null && local.mode === 'filter'
          ? local.counting
            ? `looking for /${local.pattern}/…`
            : `no record matches /${local.pattern}/ (esc clears it, H shows every record)`
          : fixed
            ? fixed.loading
              ? 'loading…'
              : 'no records in this window'
            : live?.state === 'backfilling' || live === null
              ? 'loading…'
              : 'no records in this window yet';
    main = (
      <StreamView
        rows={view.rows}
        selected={view.selected}
        layout={layout}
        wrap={wrap}
        highlight={highlight}
        height={rowsHeight}
        emptyText={empty}
        side={sideways.side}
        marked={gutter ? (e) => s().isMarked(e) : null}
      />
    );
  }

  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <PartsLine parts={joinParts(title)} bold />
      <AlertBanner notices={notices} ackKey={displayKey(keysOf(router.keymap, 'logs.ackAlert')[0] ?? 'a')} width={width} />
      <PartsLine parts={joinParts(status)} />
      {strip ? (
        <PartsLine parts={live?.zones?.length ? zoneStripParts(live.zones, zoneNames, now) : [{ text: `${zones.length} zones: starting…`, tone: 'muted' }]} />
      ) : null}
      {timelineHeight > 0 ? <Timeline store={store} width={streamWidth} height={timelineHeight} /> : null}
      {timelineNote ? <PartsLine parts={[{ text: timelineNote, tone: 'muted' }]} /> : null}
      <Box flexDirection="row" height={mainHeight} overflow="hidden">
        <Box width={streamWidth} height={mainHeight} overflow="hidden">
          {main}
        </Box>
        {beside ? (
          <Box marginLeft={1} width={STATS_WIDTH} height={mainHeight} flexDirection="column" overflow="hidden">
            {withMarks(statsLines, stats, marks.count ? s().markRows() : [], markCursor, STATS_WIDTH, mainHeight, true).map((l, i) => (
              <PartsLine key={i} parts={l} />
            ))}
          </Box>
        ) : null}
      </Box>
      {below > 0 ? (
        <Box flexDirection="column" height={below} width={width} overflow="hidden">
          {withMarks(statsLines, stats, marks.count ? s().markRows() : [], markCursor, width, below, false).map((l, i) => (
            <PartsLine key={i} parts={l} />
          ))}
        </Box>
      ) : null}
      <Footer store={store} width={width} wideText={sideways.indicator} />
    </Box>
  );
}

/** The bottom line: the field being typed in, or where the view is. */
function Footer({ store, width, wideText }: { store: LogsStore; width: number; wideText: string }): React.JSX.Element {
  const tone = useTone();
  const local = useSelect(store, (x) => x.local);
  const prompt = useSelect(store, (x) => x.prompt);
  const view = useSelect(store, (x) => x.view);
  const following = useSelect(store, (x) => x.following);
  const backfill = useSelect(store, (x) => x.live?.backfill ?? null);
  if (prompt) {
    // the long export label makes room for a message (a path can be long) in its shortest form
    const label =
      prompt.kind === 'time' ? 'jump to time: ' : prompt.kind !== 'export' ? 'v1 day (MM-dd-yy, UTC): ' : prompt.error ? 'to: ' : exportLabel(prompt);
    // with a message to show, the field is as wide as its text, so the message fits after it
    const fieldWidth = Math.max(12, Math.min(width - label.length - 2, prompt.error || prompt.kind === 'time' ? prompt.text.value.length + 1 : 60));
    return (
      <Box height={1} width={width} overflow="hidden">
        {/* the label and the field keep their width; only the message after them is cut */}
        <Box flexShrink={0}>
          <Text color={tone('accent')}>{label}</Text>
        </Box>
        <Box flexShrink={0} width={fieldWidth}>
          <TextField state={prompt.text} width={fieldWidth} />
        </Box>
        <Text color={prompt.error ? tone('error') : tone('muted')} wrap="truncate">
          {prompt.error ? ` ✖ ${prompt.error}` : prompt.kind === 'time' ? ` ${TIME_FORMS_HINT} (${zoneLabel(Date.now())})` : ''}
        </Text>
      </Box>
    );
  }
  if (local.editing) {
    return (
      <Box height={1} width={width} overflow="hidden">
        <Text color={tone('accent')}>/</Text>
        <Box width={Math.max(10, Math.floor(width / 2))}>
          <TextField state={local.text} width={Math.max(10, Math.floor(width / 2))} />
        </Box>
        <Text color={local.error ? tone('error') : tone('muted')} wrap="truncate">
          {local.error ? ` ✖ ${local.error}` : ' regex, smart case · enter applies · esc cancels'}
        </Text>
      </Box>
    );
  }
  // while a new pattern is counting, the filtered rows' positions are not known yet
  let where =
    local.counting && local.pattern !== null && local.mode === 'filter'
      ? 'counting matches…'
      : view.total === 0
        ? ''
        : `${following ? 'newest' : `row ${(view.selected + 1).toLocaleString('en-US')}`} of ${view.total.toLocaleString('en-US')}`;
  const pattern =
    local.pattern !== null
      ? `/${local.pattern}/ ${local.mode}${local.mode === 'filter' && local.context ? ` ±${local.context}` : ''} · H mode · +/- context · n/N next/prev · esc clears`
      : '';
  if (wideText) where = where ? `${wideText} · ${where}` : wideText;
  const room = Math.max(0, width - where.length - 2);
  return (
    <Box height={1} width={width} overflow="hidden">
      <Box width={room} overflow="hidden">
        {pattern ? (
          <Text color={tone('accent')} wrap="truncate">
            {pattern}
          </Text>
        ) : (
          <BackfillBar progress={backfill} width={room} />
        )}
      </Box>
      <Box flexGrow={1} justifyContent="flex-end">
        <Text color={tone('muted')} wrap="truncate">
          {where}
        </Text>
      </Box>
    </Box>
  );
}

export const logsScreen: ScreenDef = {
  id: 'logs',
  title: 'logs',
  aliases: [...SCREEN_ALIASES.logs],
  summary: 'live CDN logs of a pull zone, or of several merged (:logs 1058 1199)',
  arg: {
    name: 'pullZoneId',
    validate: (v) => {
      const r = parseZoneList(v);
      return Array.isArray(r) ? null : r.error;
    },
  },
  actions: logsActions,
  component: LogsScreen,
};
