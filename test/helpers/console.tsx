import { after } from 'node:test';
import { PassThrough } from 'node:stream';
import { EventEmitter } from 'node:events';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import React from 'react';
import { render } from 'ink';
import chalk from 'chalk';
import stringWidth from 'string-width';
import type { ReadyInfo } from '../../src/emulator/ready-info';
import type { Api } from '../../src/api/index';
import { App } from '../../src/app/App';
import { appKeymap } from '../../src/app/app-keymap';
import { rememberOpenLogs, reopenLogs } from '../../src/app/logs-session-start';
import { HOME_SCREEN, SCREENS } from '../../src/app/screens';
import { resolveSettings, type GlobalFlags, type Settings } from '../../src/config/settings';
import { loadConfigFile } from '../../src/config/config-file';
import { DomainStores } from '../../src/state/domain-stores';
import type { ConnectionInfo } from '../../src/state/store-hooks';
import { createUiStore, type UiStore } from '../../src/state/ui-store';
import type { LogsSessions } from '../../src/state/logs/session-file';
import { BURROW_BIN, keyBytes } from './pty';
import { until } from './wait';

const strip = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\x1b\][^\x07]*\x07/g, '');

/** Text that draws nothing: escape sequences (OSC 52 copies, notifications) and control bytes (the bell). */
const drawsNothing = (chunk: string) => strip(chunk).replace(/[\x00-\x1f\x7f]/g, '') === '';

/**
 * A terminal's output side as Ink sees it: a size, and the frames written to it. What a screen
 * writes between frames (a copy's OSC 52, the bell) is kept in the raw output, not taken for a frame.
 */
class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  frames: string[] = [];
  /** Every byte written, frames and the sequences between them, as a terminal got them. */
  raw = '';
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write(chunk: string): boolean {
    this.raw += chunk;
    if (!drawsNothing(chunk)) this.frames.push(chunk);
    return true;
  }
}

export interface InProcessConsole {
  ui: UiStore;
  stores: DomainStores;
  /** The last frame drawn, without colours, one line per row (trimmed on the right). */
  frame(): string;
  /** Sends keys: key names as pty.ts knows them, or action ids (`logs.mark`) through the default keymap. */
  press(...keys: string[]): Promise<void>;
  /** Sends text as one write (like a paste). */
  type(text: string): Promise<void>;
  /** The frame, as pty.ts's screenText (one API for both, so a test moves from a pty without a rewrite). */
  screenText(): string;
  /** The frame's rows. */
  lines(): string[];
  /** Waits until the frame contains `match`; returns the frame. Deadlines scale as every wait's (wait.ts). */
  waitFor(match: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Waits until `match` is no longer in the frame. */
  waitForGone(match: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Everything written so far, escape sequences included (as pty.ts's rawOutput). */
  rawOutput(): string;
  /** The last frame's rows with their escape sequences. */
  styledLines(): string[];
  /** True when the cell at row/column (0-based) of the last frame is drawn inverse (needs `styles`). */
  isInverse(row: number, col: number): boolean;
  /** Rows of the last frame wider than the terminal (a pty would wrap them). */
  wideRows(): number[];
  /** Resolves when the console quits (app.quit, ctrl-c) or is unmounted. */
  readonly exited: Promise<void>;
  unmount(): void;
}

const matches = (text: string, match: string | RegExp) => (typeof match === 'string' ? text.includes(match) : match.test(text));

/** Whether the cell at `col` of a styled line is inverse: SGR 7 on, 27 or a reset off. */
function inverseAt(line: string, col: number): boolean {
  let inverse = false;
  let cell = 0;
  for (const part of line.split(/(\x1b\[[0-9;]*m)/)) {
    const sgr = /^\x1b\[([0-9;]*)m$/.exec(part);
    if (sgr) {
      const codes = sgr[1] === '' ? ['0'] : sgr[1]!.split(';');
      for (let i = 0; i < codes.length; i++) {
        const code = codes[i];
        // 38;5;n and 38;2;r;g;b (and 48): a colour's numbers, not codes of their own
        if (code === '38' || code === '48') i += codes[i + 1] === '5' ? 2 : 4;
        else if (code === '7') inverse = true;
        else if (code === '27' || code === '0' || code === '') inverse = false;
      }
      continue;
    }
    for (const ch of strip(part)) {
      const width = stringWidth(ch);
      if (col >= cell && col < cell + Math.max(1, width)) return inverse;
      cell += width;
    }
  }
  return false;
}

let stateHome: string | null = null;
/**
 * What the stores write under the state directory (the SQL shell's history) goes to a directory
 * of this test process, never the user's: XDG_STATE_HOME, unless the test file set its own.
 */
function isolateStateDir(): void {
  if (stateHome !== null || process.env.XDG_STATE_HOME) return;
  stateHome = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-inproc-state-'));
  process.env.XDG_STATE_HOME = stateHome;
  const dir = stateHome;
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
}

/**
 * The console rendered in this process: the real App, stores and keymap, drawn by Ink to a fake
 * terminal (debug mode: every frame written whole), keys fed to its stdin. A screen test runs in
 * milliseconds and needs no pseudo-terminal; what it cannot see is the terminal itself (the
 * alternate screen, restoring it, resizes from outside), which the pty tests keep.
 */
export interface RenderOptions {
  cols?: number;
  rows?: number;
  settings?: Partial<Settings>;
  /** The header's connection (profile, endpoint, EMULATOR badge); by default an emulator. */
  info?: Partial<ConnectionInfo>;
  /**
   * Set in this process's environment while the console runs (undefined removes a variable), as
   * pty.ts's `env` is for the binary: TZ (times are drawn in the local zone), TERM_PROGRAM (which
   * notifications the bell comes with). Restored at unmount: one console at a time.
   */
  env?: Record<string, string | undefined>;
  /** The working directory while the console runs (where an export goes), restored at unmount. */
  cwd?: string;
  /**
   * Draw colours and styles as at a colour terminal: chalk's level is raised to 16 colours for the
   * rest of this test process (isInverse reads the selection), and the theme's colours follow
   * settings.color (false: styles only, as --no-color keeps inverse and bold). Without it frames
   * have no escape codes at all.
   */
  styles?: boolean;
  /**
   * Where logs screens keep their setup between runs (StoreDeps.sessions), as the binary's start
   * and quit use them: the file's warning shown, the logs screen open at the last quit reopened,
   * the one open at app.quit remembered. None: nothing is kept.
   */
  sessions?: LogsSessions;
}

/** Sets variables in process.env; returns what puts them back. */
function setEnv(env: Record<string, string | undefined>): () => void {
  const before = Object.entries(env).map(([k]) => [k, process.env[k]] as const);
  const assign = (entries: readonly (readonly [string, string | undefined])[]) => {
    for (const [k, v] of entries) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  assign(Object.entries(env));
  return () => assign(before);
}

export function renderConsole(api: Api, options: RenderOptions = {}): InProcessConsole {
  // the test runner sets FORCE_COLOR=0: no styles unless asked for
  if (options.styles && chalk.level === 0) chalk.level = 1;
  const restoreEnv = setEnv(options.env ?? {});
  const cwdBefore = process.cwd();
  if (options.cwd) process.chdir(options.cwd);
  let quit: () => void = () => {};
  const exited = new Promise<void>((resolve) => (quit = resolve));
  const settings: Settings = { ...resolveSettings({}, {}, {}), ...options.settings };
  isolateStateDir();
  const stdout = new FakeStdout(options.cols ?? 120, options.rows ?? 30);
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
  stdin.setEncoding('utf8');
  const { keymap, warnings } = appKeymap(settings.keys);
  const sessions = options.sessions;
  const ui = createUiStore({
    readOnly: settings.readOnly,
    readOnlySource: settings.readOnlySource,
    home: HOME_SCREEN,
    onQuit: () => {
      if (sessions) rememberOpenLogs(ui, sessions);
      unmount();
    },
  });
  const allWarnings = [...settings.warnings, ...warnings, ...(sessions?.warning ? [sessions.warning] : [])];
  if (allWarnings.length > 0) ui.getState().setWarnings(allWarnings);
  if (sessions) reopenLogs(ui, sessions);
  const stores = new DomainStores({ api, settings, ui, now: Date.now, ...(sessions ? { sessions } : {}) });
  const info: ConnectionInfo = {
    profileName: settings.profileName,
    emulator: true,
    endpoint: 'emulator',
    readOnly: settings.readOnly,
    color: options.styles ? settings.color : false,
    ...options.info,
  };
  const instance = render(<App stores={stores} info={info} keymap={keymap} registry={SCREENS} />, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  let unmounted = false;
  const unmount = () => {
    if (unmounted) return;
    unmounted = true;
    instance.unmount();
    if (options.cwd) process.chdir(cwdBefore);
    restoreEnv();
    quit();
  };
  after(unmount);
  const frame = () =>
    strip(stdout.frames.at(-1) ?? '')
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n');
  // a wait that times out says what the frame was, as pty.ts's does
  const withFrame = (wait: Promise<string>) =>
    wait.catch((error: Error) => {
      throw new Error(`${error.message}; the frame is:\n${'-'.repeat(stdout.columns)}\n${frame()}\n${'-'.repeat(stdout.columns)}`);
    });
  const styledLines = () => (stdout.frames.at(-1) ?? '').split('\n');
  // a key is read on its own (as a person types), then Ink and React get a turn to draw
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    ui,
    stores,
    frame,
    async press(...keys) {
      for (const k of keys) {
        stdin.write(keyBytes(k));
        await turn();
        await turn();
      }
    },
    async type(text) {
      stdin.write(text);
      await turn();
    },
    screenText: frame,
    lines: () => frame().split('\n'),
    rawOutput: () => stdout.raw,
    styledLines,
    isInverse: (row, col) => inverseAt(styledLines()[row] ?? '', col),
    wideRows: () =>
      frame()
        .split('\n')
        .flatMap((l, i) => (stringWidth(l) > stdout.columns ? [i] : [])),
    waitFor: (match, timeoutMs = 5000) => withFrame(until(`${String(match)} in the frame`, () => (matches(frame(), match) ? frame() : null), timeoutMs)),
    waitForGone: (match, timeoutMs = 5000) =>
      withFrame(until(`${String(match)} to leave the frame`, () => (matches(frame(), match) ? null : frame()), timeoutMs)),
    exited,
    unmount,
  };
}

/**
 * `burrow emulator` as a child process (npm run build first), stopped when the test file ends: for
 * a test whose query keeps the database busy, which an emulator in this process would make wait.
 */
export async function useEmulatorChild(args: string[] = []): Promise<ReadyInfo> {
  const child = spawn(process.execPath, [BURROW_BIN, 'emulator', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, BURROW_API_KEY: '' },
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<ReadyInfo>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)) as ReadyInfo);
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited (code ${code}) before it was ready: ${stderr.trim()}`)));
  });
}

/**
 * Settings as burrow resolves them from a config file with this text (and `env`, flags as given):
 * the file is written to a temp XDG_CONFIG_HOME, read by the real loader, removed when the file ends.
 */
export async function settingsFromConfig(yaml: string, flags: GlobalFlags = {}, env: Record<string, string> = {}): Promise<Settings> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'burrow-inproc-cfg-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'burrow'));
  fs.writeFileSync(path.join(dir, 'burrow', 'config.yaml'), yaml, { mode: 0o600 });
  const withConfig = { ...env, XDG_CONFIG_HOME: dir };
  const loaded = await loadConfigFile(withConfig);
  return resolveSettings(flags, withConfig, loaded.config);
}
