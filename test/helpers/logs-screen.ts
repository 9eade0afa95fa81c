import { runCommand, tableRows, type KeyTarget } from './pty';

/**
 * Opens the logs screen on a zone from the home screen (`:logs ID`) and waits until it follows;
 * `ready` says what else to wait for (the first page's records: /newest of [\d,]+/). The same for
 * a console in a pty (pty.ts) and one rendered in process (console.tsx).
 */
export async function openZone(app: KeyTarget, zoneId: number, ready: RegExp = /● following/, timeoutMs?: number): Promise<string> {
  await app.waitFor('Screens');
  await runCommand(app, `logs ${zoneId}`);
  return app.waitFor(ready, timeoutMs);
}

/** The logs table's headers, in the order they can appear (ZONE only with several zones). */
const LOG_HEADERS = ['TIME', 'ZONE', 'ST', 'CACHE', 'PATH', 'BYTES', 'CC', 'EDGE', 'IP', 'USER AGENT'] as const;

/** A record's row: its time (HH:MM:SS.mmm, in the display zone), with a mark's ◆ in front when marked. */
const RECORD_TIME = /^(?:◆ )?\d\d:\d\d:\d\d\.\d{3}$/;

export interface LogRow extends Record<string, string> {
  /** '◆' on a marked record, '' on the others. */
  mark: string;
}

/**
 * The records on the logs screen, each as its cells by header (`row.ST`, `row.CACHE`): read by
 * the columns' names, not their places. The mark gutter (◆) is in `mark`, not in TIME.
 */
export function logRows(screen: string): LogRow[] {
  const header = screen.split('\n').find((l) => /^\s*TIME\s/.test(l));
  if (!header) throw new Error(`no logs table on the screen:\n${screen}`);
  const names = LOG_HEADERS.filter((n) => new RegExp(`(^|\\s)${n}(\\s|$)`).test(header));
  return tableRows(screen, 'TIME', names)
    .filter((r) => RECORD_TIME.test(r.TIME!))
    .map((r) => {
      const mark = r.TIME!.startsWith('◆') ? '◆' : '';
      return { ...r, TIME: r.TIME!.replace(/^◆ /, ''), mark };
    });
}

/** A console whose cells can be read: a pty session or one rendered in process. */
export interface CellReader {
  lines(): string[];
  isInverse(row: number, col: number): boolean;
}

/** The selected record (its row drawn inverse) as its cells by header, or null. */
export function selectedLogRow(app: CellReader): LogRow | null {
  const lines = app.lines();
  const headerAt = lines.findIndex((l) => /^\s*TIME\s/.test(l));
  if (headerAt < 0) return null;
  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') break;
    // the time is inverse on the selected row, past the mark gutter when there is one
    const at = line.search(/\d\d:\d\d:\d\d\.\d{3}/);
    if (at >= 0 && app.isInverse(i, at)) {
      const rows = logRows([lines[headerAt]!, line].join('\n'));
      return rows[0] ?? null;
    }
  }
  return null;
}
