import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBurrow } from '../helpers/cli';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { renderConsole, type InProcessConsole } from '../helpers/console';
import { cellWidth } from '../../src/text/cells';
import { resources } from '../../src/commands/get';

// For every resource `burrow get` knows: what the CLI prints (`-o table`, headers from `-o csv`)
// and what the console draws (rendered in process against the same emulator) hold the same cell
// under the same column header. The two read one renderer; this fails when either side changes a
// cell on its own. Run `npm run build` first (the CLI side is the built binary).

const emu = await useEmulator();
const api = apiFor(emu);
const env = { PATH: process.env.PATH ?? '', HOME: mkdtempSync(path.join(os.tmpdir(), 'burrow-cells-')), ...envFor(emu) };
const consoles: InProcessConsole[] = [];
after(() => consoles.forEach((c) => c.unmount()));

type Row = Record<string, string>;

/** The characters of `line` between display cells `from` and `to` (wide characters count two). */
function sliceCells(line: string, from: number, to = Number.POSITIVE_INFINITY): string {
  let at = 0;
  let out = '';
  for (const ch of line) {
    const w = cellWidth(ch);
    if (at >= from && at + w <= to) out += ch;
    at += w;
  }
  return out;
}

/** A table as the CLI prints it (`renderTable`: every cell padded to its column): rows keyed by header, to the first empty line. */
function parseCliTable(text: string, headers: string[]): Row[] {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith(headers[0]!) && headers.every((h) => l.includes(h)));
  assert.ok(at >= 0, `a table with ${headers.join(', ')} in\n${text}`);
  const head = lines[at]!;
  // a column starts where its header does
  const starts: number[] = [];
  let from = 0;
  for (const h of headers) {
    const i = head.indexOf(h, from);
    assert.ok(i >= 0, `header ${h} in "${head}"`);
    starts.push(cellWidth(head.slice(0, i)));
    from = i + h.length;
  }
  const rows: Row[] = [];
  for (const l of lines.slice(at + 1)) {
    if (l.trim() === '') break;
    rows.push(Object.fromEntries(headers.map((h, i) => [h, sliceCells(l, starts[i]!, starts[i + 1]).trim()])));
  }
  return rows;
}

/** `burrow get ARGS` as rows keyed by header: the headers from -o csv, the cells from -o table. */
async function cliRows(args: string[]): Promise<{ headers: string[]; rows: Row[] }> {
  const csv = await runBurrow(['get', ...args, '-o', 'csv'], { env });
  assert.equal(csv.code, 0, csv.stderr);
  const headers = csv.stdout.split('\n')[0]!.split(',');
  const table = await runBurrow(['get', ...args, '-o', 'table'], { env });
  assert.equal(table.code, 0, table.stderr);
  return { headers, rows: parseCliTable(table.stdout, headers) };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A cell as the screen may draw it: whole, or cut short with "…". */
function cellPattern(text: string): string {
  const chars = [...text];
  const cut = chars.map((_, i) => escape(chars.slice(0, i).join('')) + '…');
  return `(?:${[escape(text), ...cut].join('|')})`;
}

/**
 * The screen's table under `firstHeader`: its header names (known ones, longest first) and its
 * row lines, with the columns in `blank` (the screen's own) turned to spaces: each is its header's
 * span widened to the nearest place that is a space on every line.
 */
function screenTable(frame: string, firstHeader: string, known: string[], blank: string[], end?: RegExp): { headers: string[]; lines: string[] } {
  const all = frame.split('\n');
  const at = all.findIndex((l) => l.replace(/[↑↓]/g, '').trimStart().startsWith(firstHeader));
  assert.ok(at >= 0, `a table headed ${firstHeader} on the screen:\n${frame}`);
  const head = all[at]!.replace(/[↑↓]/g, ' ');
  const names = [...known].sort((a, b) => b.length - a.length);
  const headers: { name: string; from: number; to: number }[] = [];
  for (let i = head.search(/\S/); i >= 0 && i < head.length;) {
    const rest = head.slice(i);
    const name = names.find((n) => rest.startsWith(n) && (rest.length === n.length || rest[n.length] === ' '));
    assert.ok(name, `the screen's column "${rest.trim().split(' ')[0]}" is neither a column of the CLI nor declared screen-only`);
    headers.push({ name, from: cellWidth(head.slice(0, i)), to: cellWidth(head.slice(0, i + name.length)) });
    const next = head.slice(i + name.length).search(/\S/);
    i = next < 0 ? -1 : i + name.length + next;
  }
  let lines: string[] = [];
  for (const l of all.slice(at + 1)) {
    // the rows end at an empty line, or at the table's "3 of 100" footer when they fill it
    if (l.trim() === '' || /^ +\d+ of \d+/.test(l) || end?.test(l)) break;
    lines.push(l);
  }
  const spaceEverywhere = (x: number) => [head, ...lines].every((l) => [' ', ''].includes(sliceCells(l, x, x + 1)));
  for (const h of headers.filter((h) => blank.includes(h.name))) {
    let { from, to } = h;
    while (from > 0 && !spaceEverywhere(from - 1)) from--;
    while (to < Math.max(...lines.map(cellWidth)) && !spaceEverywhere(to)) to++;
    lines = lines.map((l) => sliceCells(l, 0, from) + ' '.repeat(Math.max(0, Math.min(cellWidth(l), to) - from)) + sliceCells(l, to));
  }
  return { headers: headers.map((h) => h.name), lines };
}

/** How many of the screen's columns, in order, a line shows as the CLI's row does (the first that differs is the next). */
function matchedColumns(line: string, headers: string[], row: Row, wholeOnly = false): number {
  for (let n = headers.length; n > (wholeOnly ? headers.length - 1 : 0); n--) {
    // an empty cell is only spaces; a screen-only column is any text
    // an empty cell is only spaces, and so is a screen-only column (blanked)
    const pieces = headers.slice(0, n).map((h) => (!(h in row) || row[h] === '' ? null : cellPattern(row[h]!)));
    const shown = pieces.filter((p): p is string => p !== null);
    // the spaces between cells taken whole (an atomic group), so no cell pattern backtracks into them
    const body = shown.map((p, i) => (i === 0 ? p : `(?=( +))\\${i}${p}`)).join('');
    const end = n < headers.length ? '(?: |$)' : ' *$';
    if (new RegExp(`^ *${body}${end}`).test(line)) return n;
  }
  return 0;
}

interface TableCase {
  /** `burrow get` arguments. */
  args: string[];
  /** Opens the view in the console; returns the frame once the rows are drawn. */
  open(app: InProcessConsole): Promise<string>;
  firstHeader: string;
  /** Columns the screen has that the CLI does not (a checkbox, a running count). */
  screenOnly?: string[];
  /** Columns the CLI has that this view leaves out (it shows one hostname, not all). */
  cliOnly?: string[];
  /** Runs a command other than `burrow get ARGS` and reads its table. */
  read?(): Promise<{ headers: string[]; rows: Row[] }>;
  /** The CLI's rows as the screen's table has them, when the CLI prints them otherwise. */
  cli?(printed: { headers: string[]; rows: Row[] }): { headers: string[]; rows: Row[] };
  /** A line that ends the rows (a verdict right under the table). */
  end?: RegExp;
  /** Rows the view shows when it lists fewer than the CLI (default: all of them, when they fit). */
  shows?: number;
}

/**
 * Every row the screen's table shows is a row of the CLI, cell for cell under the same header;
 * every CLI column is on the screen (unless declared left out); the screen shows at least one row,
 * and every row when the CLI has no more than the screen can hold.
 */
async function compareTable(name: string, c: TableCase): Promise<void> {
  const printed = c.read ? await c.read() : await cliRows(c.args);
  const cli = c.cli ? c.cli(printed) : printed;
  const app = renderConsole(api, { cols: 240, rows: 60 });
  consoles.push(app);
  await app.waitFor('Screens');
  const frame = await c.open(app);
  const screen = screenTable(frame, c.firstHeader, [...cli.headers, ...(c.screenOnly ?? [])], c.screenOnly ?? [], c.end);
  for (const h of cli.headers)
    if (!c.cliOnly?.includes(h)) assert.ok(screen.headers.includes(h), `${name}: the screen has no column ${h} (it has ${screen.headers.join(', ')})`);
  assert.ok(screen.lines.length > 0, `${name}: no rows on the screen`);
  const rows = cli.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([h]) => !c.cliOnly?.includes(h))));
  for (const line of screen.lines) {
    if (rows.some((r) => matchedColumns(line, screen.headers, r, true) === screen.headers.length)) continue;
    const best = rows.map((r) => ({ r, n: matchedColumns(line, screen.headers, r) })).sort((a, b) => b.n - a.n)[0]!;
    const header = screen.headers[best.n]!;
    assert.fail(
      `${name}: the screen's row\n  ${line.trim()}\nis no row of burrow ${c.read ? '' : 'get '}${c.args.join(' ')}; closest differs under ${header}: the CLI says "${best.r[header]}"`,
    );
  }
  const shows = c.shows ?? (cli.rows.length <= 40 ? cli.rows.length : null);
  if (shows !== null) assert.equal(screen.lines.length, shows, `${name}: the rows the screen shows`);
  app.unmount();
}

const palette = async (app: InProcessConsole, command: string) => {
  await app.press('app.palette');
  await app.type(command);
  await app.press('palette.run');
};

/** Opens a screen and waits for a table headed `header` with rows under it. */
const openList = (command: string, header: string, ready: RegExp | string) => async (app: InProcessConsole) => {
  await palette(app, command);
  await app.waitFor(header);
  return app.waitFor(ready);
};

/** The row whose text has `key`, opened with enter (filtered to it first). */
async function openRow(app: InProcessConsole, key: string, ready: RegExp | string): Promise<string> {
  await app.press('list.filter');
  await app.type(key);
  await app.press('filter.apply', 'list.open');
  return app.waitFor(ready);
}

const zones = await api.shield.listAllZones();
const guarded = zones.find((z) => z.planType !== 0)!;
const apps = await api.containers.listAllApps();
const lbs = await api.loadBalancers.listAll();
const libraries = await api.videoLibraries.listAll(null);
const logged = (await api.pullZones.list()).filter((z) => z.EnableLogging);

const tables: Record<string, TableCase> = {
  'shield-zones': { args: ['shield-zones'], firstHeader: 'ZONE', open: openList('shield', 'ZONE', `${zones.length} zones`) },
  apps: { args: ['apps'], firstHeader: 'NAME', open: openList('containers', 'DESCRIPTION', `${apps.length} applications`) },
  'video-libraries': { args: ['video-libraries'], firstHeader: 'NAME', open: openList('videos', 'DRM', libraries[0]!.Name!) },
  'load-balancers': { args: ['load-balancers'], firstHeader: 'NAME', open: openList('lb', 'HEALTH', `${lbs.length} profiles`) },
  'load-balancer': {
    args: ['load-balancer', String(lbs[1]!.LoadBalancerId)],
    firstHeader: 'GROUP / ORIGIN',
    open: async (app) => {
      await openList('lb', 'HEALTH', `${lbs.length} profiles`)(app);
      await openRow(app, lbs[1]!.Name!, `Load balancer ${lbs[1]!.Name}`);
      return app.waitFor('GROUP / ORIGIN');
    },
  },
  regions: {
    args: ['regions'],
    firstHeader: 'ALLOW',
    screenOnly: ['ALLOW', 'REQ', 'RUNNING'],
    open: async (app) => {
      await openList('containers', 'DESCRIPTION', `${apps.length} applications`)(app);
      return openRow(app, apps[0]!.id, 'ANYCAST');
    },
  },
  'pull-zones': {
    args: ['pull-zones'],
    firstHeader: 'ID',
    // the picker lists the zones with logging on, and one hostname each
    screenOnly: ['HOSTNAME'],
    cliOnly: ['ORIGIN', 'ENABLED', 'SUSPENDED', 'LOGGING', 'HOSTNAMES'],
    shows: logged.length,
    open: openList('logs', 'HOSTNAME', logged[0]!.Name!),
  },
};

for (const [name, c] of Object.entries(tables)) {
  test(`${name}: the console's table shows the cells of burrow get ${c.args[0]} under the same headers`, () => compareTable(name, c));
}

/** The text after `label` on the line that starts with it, up to a gap of two spaces (a key hint). */
function valueAfter(frame: string, label: string): string | null {
  const line = frame.split('\n').find((l) => l.startsWith(label + ' '));
  return line === undefined ? null : line.slice(label.length).trim().split(/ {2,}/)[0]!;
}

interface FieldCase {
  args: string[];
  open(app: InProcessConsole): Promise<string>;
  /** For each FIELD of the CLI, where the screen says it: its VALUE, as the screen shows it. */
  fields: Record<string, (frame: string) => string | null | undefined>;
}

/** A resource the CLI prints field by field: each field's VALUE is the screen's text for it. */
async function compareFields(name: string, c: FieldCase): Promise<void> {
  const cli = await cliRows(c.args);
  const app = renderConsole(api, { cols: 240, rows: 60 });
  consoles.push(app);
  await app.waitFor('Screens');
  const frame = await c.open(app);
  for (const [field, onScreen] of Object.entries(c.fields)) {
    const row = cli.rows.find((r) => r[cli.headers[0]!] === field);
    assert.ok(row, `${name}: burrow get prints no ${field}`);
    assert.equal(onScreen(frame), row[cli.headers[1]!], `${name}: ${field} on the screen and in burrow get ${c.args.join(' ')}`);
  }
  app.unmount();
}

const guardians = await Promise.all(zones.filter((z) => z.planType !== 0).map((z) => api.shield.getApiGuardian(z.shieldZoneId)));
const specified = guardians.find((g) => g.endpoints.length > 0)!.configuration.shieldZoneId;
const openGuardian = async (app: InProcessConsole) => {
  await openList('shield', 'ZONE', `${zones.length} zones`)(app);
  await openRow(app, String(specified), 'API Guardian');
  return app.waitFor('METHOD');
};
/** The plan limits line: "endpoints 10 · fields 50 · …" read as one word's number. */
const limit = (word: string) => (frame: string) => valueAfter(frame, 'Plan limits')?.match(new RegExp(`\\b${word} (\\d+)`))?.[1];
/** A gauge line: "applications  ███░░ 3 / 25  12%", "volumes per application  max 5" or "unlimited". */
const gauge = (label: string, part: 'used' | 'max') => (frame: string) => {
  const m =
    valueAfter(frame, label) === null
      ? null
      : frame
          .split('\n')
          .find((l) => l.startsWith(label + ' '))!
          .slice(label.length)
          .trim()
          .match(/^(?:[█░]+ (\d+) \/ (\d+)|max (\d+)|(unlimited))/);
  if (!m) return null;
  return part === 'used' ? (m[1] ?? '') : (m[2] ?? m[3] ?? m[4]);
};

const fieldCases: Record<string, FieldCase> = {
  'api-guardian': {
    args: ['api-guardian', String(specified)],
    open: openGuardian,
    fields: {
      enabled: (f) => valueAfter(f, 'Enabled'),
      'execution mode': (f) => valueAfter(f, 'Execution mode'),
      'body limit action': (f) => valueAfter(f, 'Body over limit'),
      'unmatched path action': (f) => valueAfter(f, 'Unmatched path'),
      'max endpoints': limit('endpoints'),
      'max fields per type': limit('fields'),
      'max nesting depth': limit('depth'),
      'max total schema nodes': limit('nodes'),
      'max total regex length': limit('regex'),
      endpoints: (f) => valueAfter(f, 'Specification')?.match(/· (\d+) endpoints?$/)?.[1],
    },
  },
  'region-settings': {
    args: ['region-settings', apps[0]!.id],
    open: async (app) => {
      await openList('containers', 'DESCRIPTION', `${apps.length} applications`)(app);
      return openRow(app, apps[0]!.id, 'ANYCAST');
    },
    fields: {
      'allowed regions': (f) => valueAfter(f, 'allowed'),
      'required regions': (f) => valueAfter(f, 'required'),
      'max allowed regions': (f) => valueAfter(f, 'max')?.split(' · ')[0],
      provisioning: (f) => f.match(/provisioning (\S+)/)?.[1] ?? '',
    },
  },
};

for (const [name, c] of Object.entries(fieldCases)) {
  test(`${name}: each field of burrow get ${c.args[0]} is what the console shows for it`, () => compareFields(name, c));
}

/**
 * `burrow get api-guardian`'s endpoint rows ("  GET /orders" | "on · validates req auth · rate
 * limit 10 per IP") as the console's endpoint table has them: by header.
 */
function endpointRows(printed: { headers: string[]; rows: Row[] }): { headers: string[]; rows: Row[] } {
  const headers = ['METHOD', 'PATH', 'ON', 'VALIDATES', 'RATE LIMIT'];
  const rows = printed.rows
    .filter((r) => r.FIELD!.startsWith('  ') || /^[A-Z]+ \//.test(r.FIELD!))
    .map((r) => {
      const [method, ...path] = r.FIELD!.trim().split(' ');
      const [on, validates, rate] = r.VALUE!.split(' · ');
      const after = (cell: string | undefined, header: string) =>
        cell?.startsWith(`${header.toLowerCase()} `) ? cell.slice(header.length + 1) : `(no ${header})`;
      return { METHOD: method!, PATH: path.join(' '), ON: on!, VALIDATES: after(validates, 'VALIDATES'), 'RATE LIMIT': after(rate, 'RATE LIMIT') };
    });
  assert.ok(rows.length > 0, 'burrow get api-guardian prints the endpoints');
  return { headers, rows };
}

test("api-guardian: the console's endpoint table shows the cells of burrow get api-guardian's endpoint rows", () =>
  compareTable('api-guardian endpoints', { args: ['api-guardian', String(specified)], firstHeader: 'METHOD', open: openGuardian, cli: endpointRows }));

test("limits: each limit of burrow get limits is what the console's gauges show (used, max)", async () => {
  const cli = await cliRows(['limits']);
  const app = renderConsole(api, { cols: 240, rows: 60 });
  consoles.push(app);
  await app.waitFor('Screens');
  const frame = await openList('containers', 'Container limits', /applications +\S/)(app);
  assert.deepEqual(cli.headers, ['LIMIT', 'USED', 'MAX']);
  for (const r of cli.rows) {
    assert.deepEqual(
      { USED: gauge(r.LIMIT!, 'used')(frame), MAX: gauge(r.LIMIT!, 'max')(frame) },
      { USED: r.USED, MAX: r.MAX },
      `the ${r.LIMIT} gauge:\n${frame}`,
    );
  }
  app.unmount();
});

test('every resource of burrow get is compared here', () => {
  const compared = new Set([...Object.values(tables), ...Object.values(fieldCases)].map((c) => c.args[0]).concat('api-guardian', 'limits'));
  assert.deepEqual(
    resources.map((r) => r.name).filter((n) => !compared.has(n)),
    [],
  );
});

test("shield check-spec: the console's spec panel shows the cells of burrow shield check-spec's table", async () => {
  const spec = path.resolve('test/fixtures/openapi-petstore.yaml');
  await compareTable('check-spec', {
    args: ['shield', 'check-spec', spec, '--zone', String(specified)],
    firstHeader: 'LIMIT',
    end: /^(within|over)/,
    read: async () => {
      const run = await runBurrow(['shield', 'check-spec', spec, '--zone', String(specified)], { env });
      assert.equal(run.code, 0, run.stderr);
      const head = run.stdout.split('\n').find((l) => l.startsWith('LIMIT'))!;
      const headers = head.trim().split(/ {2,}/);
      return { headers, rows: parseCliTable(run.stdout, headers) };
    },
    open: async (app) => {
      await openGuardian(app);
      await app.press('shield.spec');
      await app.type(spec);
      await app.press('prompt.apply');
      return app.waitFor(/^(within|over)/m);
    },
  });
});
