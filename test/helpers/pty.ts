/**
 * Runs the real `node bin/burrow.js ...` in a pseudo-terminal and reads the screen the way a
 * person sees it, through a headless xterm.
 *
 *   const app = startBurrow([], { env: envFor(emu), cols: 80, rows: 24 });
 *   await app.waitFor('Screens');            // polls the screen; on timeout throws with the screen
 *   await app.press(':');                    // key names: see KEYS below; single characters as-is
 *   await app.type('cont');
 *   await app.press('tab', 'enter');
 *   const screen = await app.waitFor(/applications\s+.*\d+ \/ \d+/);
 *   await app.press('q');
 *   const { exitCode } = await app.exited;
 *   app.rawOutput();                         // every byte the program wrote, for escape checks
 *
 * Every process started here is killed in an `after` hook, even when the test fails.
 * The environment is NOT inherited: only PATH, HOME, LANG, TMPDIR, TERM=xterm-256color, fresh
 * empty XDG_CONFIG_HOME/XDG_STATE_HOME directories, XDG_CACHE_HOME=TEST_CACHE_HOME, and what
 * `env` adds (set a key to undefined to remove it). CI is never passed: Ink renders only a last frame when CI is set.
 */
import { after } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn as spawnPty } from '@lydell/node-pty';
import xterm from '@xterm/headless';
import { appKeymap } from '../../src/app/app-keymap';
import { keysOf, type Keymap } from '../../src/keys/keymap';
import { INPUT_ACK_OSC } from '../../src/runtime/io';
import { deadline } from './wait';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BURROW_BIN = path.join(ROOT, 'bin', 'burrow.js');

/**
 * XDG_CACHE_HOME of the binaries the tests start, unless a test sets its own: one directory for
 * every test, so that burrow's code cache (bin/run-bundle.cjs) is written once per command and
 * build and then used, as on a user's machine, instead of every start with a fresh HOME compiling
 * the whole bundle and writing a cache nobody reads. The cache is never needed for correctness,
 * and its own tests (e2e/code-cache) give each run a directory of its own.
 */
export const TEST_CACHE_HOME = path.join(ROOT, 'node_modules', '.cache', 'burrow-test-cache-home');

/** Bytes sent for each key name. Any other single character is sent as itself. */
export const KEYS: Record<string, string> = {
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  home: '\x1b[H',
  end: '\x1b[F',
  pgup: '\x1b[5~',
  pgdn: '\x1b[6~',
  delete: '\x1b[3~',
  enter: '\r',
  esc: '\x1b',
  tab: '\t',
  'shift-tab': '\x1b[Z',
  'shift-left': '\x1b[1;2D',
  'shift-right': '\x1b[1;2C',
  backspace: '\x7f',
  space: ' ',
};

let defaultKeymap: Keymap | null = null;

/**
 * The key an action has in the default keymap ('logs.mark' -> 'm'): a test presses what help shows
 * a person, and keeps working when a default key changes.
 */
export function keyOfAction(id: string): string {
  defaultKeymap ??= appKeymap({}).keymap;
  const key = keysOf(defaultKeymap, id)[0];
  if (key === undefined) throw new Error(`no action "${id}" in the keymap (or it has no key)`);
  return key;
}

/** An action id (`screen.verb`) rather than a key name. */
const isActionId = (name: string) => /^[a-z][\w-]*\.[a-zA-Z][\w.]*$/.test(name);

/** `ctrl-c` -> \x03 and so on; named keys from KEYS; single characters as themselves; an action id (`logs.mark`) as its key. */
export function keyBytes(name: string): string {
  if (KEYS[name] !== undefined) return KEYS[name]!;
  if (isActionId(name)) return keyBytes(keyOfAction(name));
  const ctrl = /^ctrl-([a-z])$/.exec(name);
  if (ctrl) return String.fromCharCode(ctrl[1]!.charCodeAt(0) - 96);
  if ([...name].length === 1) return name;
  throw new Error(`unknown key name "${name}" (use ${Object.keys(KEYS).join(', ')}, ctrl-a..ctrl-z or one character)`);
}

export interface PtyOptions {
  cols?: number;
  rows?: number;
  /** Added to the minimal environment; undefined removes a variable. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Program to run instead of `node bin/burrow.js` (args still apply). */
  command?: { file: string; args: string[] };
}

export interface ExitInfo {
  exitCode: number;
  signal: number | undefined;
}

export interface PtySession {
  /** Process id of the program in the terminal. */
  readonly pid: number;
  /** The visible screen, one line per row, each trimmed on the right. */
  screenText(): string;
  /** The visible rows as an array (trimmed on the right). */
  lines(): string[];
  /** True when the cell at row/column (0-based, visible screen) is drawn inverse (a selection). */
  isInverse(row: number, col: number): boolean;
  /** Visible rows (0-based) that continue a line the terminal had to wrap: a line wider than the terminal. */
  wrappedRows(): number[];
  /**
   * Waits until the screen contains `match` (string or RegExp) and returns the screen text.
   * `timeoutMs` (default 10 s) is for an idle machine and scales with its load (wait.ts deadline).
   * On timeout it throws an error whose message holds the current screen.
   */
  waitFor(match: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Waits until `match` is no longer on the screen. */
  waitForGone(match: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Sends keys one by one, each once the program has read the one before (an esc is not read as alt-). */
  press(...keys: string[]): Promise<void>;
  /** Sends text as one write (like a paste) and waits until the program has read it. */
  type(text: string): Promise<void>;
  /** Resizes the pseudo-terminal and the headless screen (the program gets SIGWINCH). */
  resize(cols: number, rows: number): void;
  /** Everything the program wrote so far, escape sequences included (its input acks left out). */
  rawOutput(): string;
  /** Resolves when the program exits. */
  readonly exited: Promise<ExitInfo>;
  /** Sends a signal (default SIGTERM) to the program. */
  kill(signal?: NodeJS.Signals): void;
  /** Waits until the headless terminal has parsed all output received so far. */
  flush(): Promise<void>;
}

function matches(text: string, match: string | RegExp): boolean {
  return typeof match === 'string' ? text.includes(match) : match.test(text);
}

/** The program's input acks (src/runtime/io.ts): the harness's own, not part of what a test reads. */
const INPUT_ACKS = new RegExp(`\\x1b\\]${INPUT_ACK_OSC};(?:\\d+|raw=[01])\\x07`, 'g');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts `node bin/burrow.js ...args` in a pseudo-terminal. Killed in an `after` hook. */
export function startBurrow(args: string[] = [], options: PtyOptions = {}): PtySession {
  const cols = options.cols ?? 80;
  const rows = options.rows ?? 24;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-pty-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: process.env.LANG ?? 'C.UTF-8',
    TMPDIR: os.tmpdir(),
    TERM: 'xterm-256color',
    // times are drawn in the local zone: UTC unless a test sets TZ, whatever the machine's zone
    TZ: 'UTC',
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_STATE_HOME: path.join(home, 'state'),
    XDG_CACHE_HOME: TEST_CACHE_HOME,
    // the program says when it has read each key (src/runtime/io.ts): press() waits for it
    BURROW_TEST: '1',
    BURROW_INPUT_ACK: '1',
  };
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  delete env.CI;
  delete env.CONTINUOUS_INTEGRATION;
  const file = options.command?.file ?? process.execPath;
  const argv = options.command ? [...options.command.args, ...args] : [BURROW_BIN, ...args];
  const proc = spawnPty(file, argv, { name: 'xterm-256color', cols, rows, cwd: options.cwd ?? ROOT, env });
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 });
  let raw = '';
  let done = false;
  let bytesRead = 0;
  // cooked mode until the program says raw (a shell, a y/N question): the terminal holds the line
  let rawMode = false;
  term.parser.registerOscHandler(INPUT_ACK_OSC, (data) => {
    if (data.startsWith('raw=')) rawMode = data === 'raw=1';
    else bytesRead += Number(data) || 0;
    return true;
  });
  proc.onData((d) => {
    raw += d;
    term.write(d);
  });
  // node-pty reports the exit once the last output is read; the headless terminal parses what it
  // was given a little later: a screen read after `exited` must see the last frame
  const exited = new Promise<ExitInfo>((resolve) => {
    proc.onExit(({ exitCode, signal }) => {
      done = true;
      term.write('', () => resolve({ exitCode, signal }));
    });
  });

  after(async () => {
    if (!done) {
      try {
        proc.kill('SIGKILL');
      } catch {
        // already gone
      }
      // a bound, not a pause: returns as soon as the killed program is gone
      await Promise.race([exited, sleep(2000)]);
    }
    term.dispose();
    fs.rmSync(home, { recursive: true, force: true });
  });

  const lines = (): string[] => {
    const buf = term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < term.rows; i++) out.push(buf.getLine(buf.viewportY + i)?.translateToString(true) ?? '');
    return out;
  };
  const screenText = () => lines().join('\n');
  const flush = () => new Promise<void>((resolve) => term.write('', resolve));

  /**
   * Writes the bytes and waits until the program has read them (its acks, counted by the OSC
   * handler above), so that the next write is a read of its own, as a person's next keystroke is:
   * bytes read together are one paste to the input parser, and an esc read with what follows is
   * alt-. The wait is on the program, not on a pause that holds only on an idle machine.
   */
  async function send(bytes: string, what: string): Promise<void> {
    await flush();
    const target = bytesRead + Buffer.byteLength(bytes);
    proc.write(bytes);
    // in cooked mode the line discipline holds the input until enter (and acts on some keys itself)
    if (!rawMode) return;
    const end = deadline(10_000);
    for (;;) {
      if (done) return;
      await flush();
      if (bytesRead >= target) return;
      if (end.passed()) {
        throw new Error(
          `the program did not read ${what} within ${end.describe()} (read ${bytesRead - target + Buffer.byteLength(bytes)} of its ${Buffer.byteLength(bytes)} bytes)`,
        );
      }
      await sleep(5);
    }
  }

  async function waitUntil(ok: (text: string) => boolean, what: string, timeoutMs: number): Promise<string> {
    const end = deadline(timeoutMs);
    for (;;) {
      await flush();
      // Ink wraps each frame in a synchronized update (DEC mode 2026); the pty may hand a frame
      // over in pieces, and a screen read between them shows a frame half drawn
      const midFrame = term.modes.synchronizedOutputMode;
      const text = screenText();
      if (!midFrame && ok(text)) return text;
      if (end.passed()) {
        throw new Error(
          `timed out after ${end.describe()} waiting for ${what}${done ? ' (the program has exited)' : ''}; the screen is:\n${'-'.repeat(term.cols)}\n${text}\n${'-'.repeat(term.cols)}`,
        );
      }
      await sleep(25);
    }
  }

  return {
    pid: proc.pid,
    screenText,
    lines,
    wrappedRows() {
      const buf = term.buffer.active;
      const rows: number[] = [];
      for (let i = 0; i < term.rows; i++) if (buf.getLine(buf.viewportY + i)?.isWrapped) rows.push(i);
      return rows;
    },
    isInverse(row, col) {
      const buf = term.buffer.active;
      return Boolean(
        buf
          .getLine(buf.viewportY + row)
          ?.getCell(col)
          ?.isInverse(),
      );
    },
    waitFor: (match, timeoutMs = 10_000) => waitUntil((t) => matches(t, match), `${String(match)} on the screen`, timeoutMs),
    waitForGone: (match, timeoutMs = 10_000) => waitUntil((t) => !matches(t, match), `${String(match)} to leave the screen`, timeoutMs),
    async press(...keys) {
      for (const k of keys) await send(keyBytes(k), k);
    },
    async type(text) {
      await send(text, JSON.stringify(text));
    },
    resize(c, r) {
      proc.resize(c, r);
      term.resize(c, r);
    },
    rawOutput: () => raw.replace(INPUT_ACKS, ''),
    exited,
    kill(signal = 'SIGTERM') {
      if (!done) proc.kill(signal);
    },
    flush,
  };
}

/** A console a test drives: a pty session, or one rendered in process (console.tsx). */
export interface KeyTarget {
  press(...keys: string[]): Promise<void>;
  type(text: string): Promise<void>;
  waitFor(match: string | RegExp, timeoutMs?: number): Promise<string>;
}

/** Runs a palette command (`db`, `logs 12`) as a person does: app.palette, the text, palette.run. */
export async function runCommand(app: KeyTarget, text: string): Promise<void> {
  await app.press('app.palette');
  await app.type(text);
  await app.press('palette.run');
}

/**
 * The rows of the table whose header line starts with `firstHeader`, each as its cells by header
 * (`rows[0]!['STATUS']`): columns are where the header's words start (a header is words separated
 * by one space; columns by two or more), so a test reads a column by its name, not its position.
 * A column reaches left of its header to the gap before it (right-aligned numbers wider than the
 * header). Where columns are one space apart (narrow right-aligned numbers: `PRIO WEIGHT ON`), `headers`
 * names every column in order. Rows run to the first empty line.
 */
export function tableRows(screen: string, firstHeader: string, headers?: readonly string[]): Record<string, string>[] {
  const lines = screen.split('\n');
  const at = lines.findIndex((l) => l.trimStart().startsWith(firstHeader));
  if (at < 0) throw new Error(`no table with a header starting "${firstHeader}" on the screen:\n${screen}`);
  const header = lines[at]!;
  const starts: number[] = [];
  const names: string[] = [];
  if (headers) {
    let from = 0;
    for (const name of headers) {
      const i = header.indexOf(name, from);
      if (i < 0) throw new Error(`no column "${name}" after column ${from} in the header:\n${header}`);
      starts.push(i);
      names.push(name);
      from = i + name.length;
    }
  } else {
    for (const m of header.matchAll(/\S+(?: \S+)*/g)) {
      starts.push(m.index);
      names.push(m[0]);
    }
  }
  const body: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '') break;
    body.push(line);
  }
  // between two headers, a column starts after the widest run of columns blank in every line (the
  // gap between the cells; a space inside aligned values is narrower): right-aligned numbers
  // wider than their header reach left of it
  const blank = (p: number) => [header, ...body].every((l) => (l[p] ?? ' ') === ' ');
  const bounds = starts.map((start, i) => {
    if (i === 0) return 0;
    let best = { length: 0, end: start };
    let run = 0;
    for (let p = starts[i - 1]! + names[i - 1]!.length; p < start; p++) {
      run = blank(p) ? run + 1 : 0;
      if (run > 0 && run >= best.length) best = { length: run, end: p + 1 };
    }
    return best.end;
  });
  return body.map((line) => {
    const row: Record<string, string> = {};
    names.forEach((name, i) => {
      row[name] = line.slice(bounds[i], i + 1 < bounds.length ? bounds[i + 1] : undefined).trim();
    });
    return row;
  });
}
