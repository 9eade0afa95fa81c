import { defineActions } from '../../keys/keymap';

/**
 * Keys of the logs screen (context "logs"). The shell's own keys do the rest: p pause/follow,
 * r poll now, / local pattern, enter a record in full, j k g G PgUp PgDn to move (moving up
 * pauses, G follows again), d the raw record, w wide mode, esc closes what is open. Nothing
 * here changes the platform. U for the previous mark is lnav's key for the previous bookmark.
 */
export const logsActions = defineActions([
  { id: 'logs.window1m', keys: ['1'], description: 'time window: follow from 1 minute ago', context: 'logs', hint: 'window' },
  { id: 'logs.window5m', keys: ['2'], description: 'time window: from 5 minutes ago', context: 'logs' },
  { id: 'logs.window15m', keys: ['3'], description: 'time window: from 15 minutes ago (the default)', context: 'logs' },
  { id: 'logs.window1h', keys: ['4'], description: 'time window: from 1 hour ago', context: 'logs' },
  { id: 'logs.window3d', keys: ['5'], description: 'time window: from 3 days ago (the whole retention)', context: 'logs' },
  {
    id: 'logs.filters',
    keys: ['f'],
    description: 'server filters: status, cache, country, edge, IP, URL/UA/referer, search',
    context: 'logs',
    hint: 'filters',
    priority: 85,
  },
  { id: 'logs.clearFilters', keys: ['X'], description: 'clear every server filter', context: 'logs' },
  { id: 'logs.mode', keys: ['H'], description: 'local pattern: filter (only matches) or highlight (every record, matches highlighted)', context: 'logs' },
  { id: 'logs.contextMore', keys: ['+', '='], description: 'one more context line around local matches', context: 'logs' },
  { id: 'logs.contextLess', keys: ['-'], description: 'one less context line around local matches', context: 'logs' },
  { id: 'logs.nextMatch', keys: ['n'], description: 'next record matching the local pattern', context: 'logs' },
  { id: 'logs.prevMatch', keys: ['N'], description: 'previous record matching the local pattern', context: 'logs' },
  { id: 'logs.stats', keys: ['i'], description: 'statistics panel on or off', context: 'logs', hint: 'stats', priority: 30 },
  { id: 'logs.wrap', keys: ['W'], description: 'wrap long lines (shows every column; w is wide mode instead)', context: 'logs' },
  { id: 'logs.time', keys: ['t'], description: 'timestamps: time, full date-time, hidden', context: 'logs' },
  { id: 'logs.copyId', keys: ['y'], description: 'copy the request id of the selected record (OSC 52)', context: 'logs', hint: 'copy id' },
  { id: 'logs.copyJson', keys: ['Y'], description: 'copy the selected record as JSON (OSC 52)', context: 'logs' },
  { id: 'logs.export', keys: ['e'], description: 'export the shown records to NDJSON or CSV', context: 'logs', hint: 'export' },
  {
    id: 'logs.sql',
    keys: ['Q'],
    description: 'SQL on the records held (:sql logs): the table logs, kept up to date',
    context: 'logs',
    hint: 'sql',
    priority: 30,
  },
  {
    id: 'logs.alerts',
    keys: ['A'],
    description: 'alert rules on these records: add, list, remove (filter + rate over a window)',
    context: 'logs',
    hint: 'alerts',
    priority: 30,
  },
  { id: 'logs.ackAlert', keys: ['a'], description: 'acknowledge the alert banner', context: 'logs' },
  { id: 'logs.pickZone', keys: ['space'], description: 'zone picker: select or unselect a zone; enter follows the selected zones merged', context: 'logs' },
  { id: 'logs.v1', keys: ['v'], description: 'open a past day (v1 log file, within the 3-day retention)', context: 'logs', hint: 'v1 day' },
  {
    id: 'logs.timeJump',
    keys: ['@'],
    description: 'jump to a time: 14:05, 14:05:30, 2026-11-24 14:05, -10m (pauses the follow)',
    context: 'logs',
    hint: 'time',
    priority: 80,
  },
  {
    id: 'logs.mark',
    keys: ['m'],
    description: 'mark or unmark the selected record (◆; the stats panel lists the marks)',
    context: 'logs',
    hint: 'mark',
    priority: 80,
  },
  { id: 'logs.nextMark', keys: ['M'], description: 'next marked record (goes around at the end)', context: 'logs' },
  { id: 'logs.prevMark', keys: ['U'], description: 'previous marked record (goes around at the start)', context: 'logs' },
  { id: 'logs.clearMarks', keys: ['C'], description: 'clear every mark', context: 'logs' },
  { id: 'logs.marksFocus', keys: ["'"], description: 'the keys go to the marks list of the stats panel (opens it), or back to the table', context: 'logs' },
  {
    id: 'logs.timeline',
    keys: ['T'],
    description: 'timeline panel on or off: requests per time bucket by status class (opens with the keys)',
    context: 'logs',
    hint: 'timeline',
  },
  { id: 'logs.timelineFocus', keys: ['tab'], description: 'the keys go to the timeline panel, or back to the table', context: 'logs' },
  // while the timeline has the keys (its keys shadow the table's; otherwise they pass on to it)
  { id: 'timeline.older', keys: ['left', 'h'], description: 'timeline: cursor one bucket back', context: 'logs:timeline' },
  { id: 'timeline.newer', keys: ['right', 'l'], description: 'timeline: cursor one bucket on (past the newest: follows the newest)', context: 'logs:timeline' },
  { id: 'timeline.zoomIn', keys: ['+', '='], description: 'timeline: finer buckets (1s 5s 10s 30s 1m 5m 15m 1h)', context: 'logs:timeline' },
  { id: 'timeline.zoomOut', keys: ['-'], description: 'timeline: coarser buckets', context: 'logs:timeline' },
  {
    id: 'timeline.jump',
    keys: ['enter'],
    description: "timeline: the table jumps to the first record of the cursor's bucket (pauses the follow)",
    context: 'logs:timeline',
  },
  { id: 'timeline.table', keys: ['esc'], description: 'timeline: the keys go back to the table (the panel stays)', context: 'logs:timeline' },
  // while the marks list of the stats panel has the keys (`'`)
  { id: 'marks.down', keys: ['down', 'j'], description: 'marks: cursor to the next (newer) mark', context: 'logs:marks' },
  { id: 'marks.up', keys: ['up', 'k'], description: 'marks: cursor to the previous (older) mark', context: 'logs:marks' },
  {
    id: 'marks.jump',
    keys: ['enter'],
    description: "marks: the table selects the cursor's mark (pauses the follow); an evicted one says so",
    context: 'logs:marks',
  },
  { id: 'marks.table', keys: ['esc'], description: 'marks: the keys go back to the table (the panel stays)', context: 'logs:marks' },
]);

declare module '../../keys/keymap' {
  interface ActionIds extends Record<(typeof logsActions)[number]['id'], true> {}
}
