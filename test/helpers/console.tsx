import { after } from 'node:test';
import { PassThrough } from 'node:stream';
import { EventEmitter } from 'node:events';
import React from 'react';
import { render } from 'ink';
import chalk from 'chalk';
import type { Api } from '../../src/api/index';
import { App } from '../../src/app/App';
import { appKeymap } from '../../src/app/app-keymap';
import { rememberOpenLogs, reopenLogs } from '../../src/app/logs-session-start';
import { HOME_SCREEN, SCREENS } from '../../src/app/screens';
import { resolveSettings, type Settings } from '../../src/config/settings';
import { DomainStores } from '../../src/state/domain-stores';
import type { ConnectionInfo } from '../../src/state/store-hooks';
import { createUiStore, type UiStore } from '../../src/state/ui-store';
import type { LogsSessions } from '../../src/state/logs/session-file';
import { keyBytes } from './pty';
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
  raw: string[] = [];
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write(chunk: string): boolean {
    this.raw.push(chunk);
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
  /** True when the cell at row/column (0-based; a column is a code point) of the last frame is drawn inverse (a selection; needs `styles`). */
  isInverse(row: number, col: number): boolean;
  /** Everything written to the terminal so far, escape sequences included (OSC 52 copies, the bell, notifications). */
  rawOutput(): string;
  /** Resolves when the console quits (app.quit, ctrl-c) or is unmounted. */
  readonly exited: Promise<void>;
  unmount(): void;
}

const matches = (text: string, match: string | RegExp) => (typeof match === 'string' ? text.includes(match) : match.test(text));

/** Whether the code point at `col` of a frame's row is drawn inverse (SGR 7, up to 27 or 0). */
function inverseAt(frame: string, row: number, col: number): boolean {
  const line = frame.split('\n')[row] ?? '';
  let inverse = false;
  let at = 0;
  for (const m of line.matchAll(/\x1b\[([0-9;]*)m|\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|([\s\S])/gu)) {
    if (m[1] !== undefined) {
      const codes = (m[1] || '0').split(';');
      for (let i = 0; i < codes.length; i++) {
        const code = codes[i];
        // 38;5;n and 38;2;r;g;b (and 48): a colour's numbers, not codes of their own
        if (code === '38' || code === '48') i += codes[i + 1] === '5' ? 2 : 4;
        else if (code === '7') inverse = true;
        else if (code === '27' || code === '0' || code === '') inverse = false;
      }
    } else if (m[2] !== undefined) {
      if (at === col) return inverse;
      at++;
    }
  }
  return false;
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
  const stdout = new FakeStdout(options.cols ?? 120, options.rows ?? 30);
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
  stdin.setEncoding('utf8');
  const { keymap } = appKeymap(settings.keys);
  const sessions = options.sessions;
  const ui = createUiStore({
    readOnly: settings.readOnly,
    home: HOME_SCREEN,
    onQuit: () => {
      if (sessions) rememberOpenLogs(ui, sessions);
      unmount();
    },
  });
  if (sessions?.warning) ui.getState().setWarnings([sessions.warning]);
  if (sessions) reopenLogs(ui, sessions);
  const stores = new DomainStores({ api, settings, ui, now: Date.now, ...(sessions ? { sessions } : {}) });
  const info: ConnectionInfo = {
    profileName: settings.profileName,
    emulator: true,
    endpoint: 'emulator',
    readOnly: settings.readOnly,
    color: options.styles ? settings.color : false,
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
    isInverse: (row, col) => inverseAt(stdout.frames.at(-1) ?? '', row, col),
    rawOutput: () => stdout.raw.join(''),
    waitFor: (match, timeoutMs = 5000) => until(`${String(match)} in the frame`, () => (matches(frame(), match) ? frame() : null), timeoutMs),
    waitForGone: (match, timeoutMs = 5000) => until(`${String(match)} to leave the frame`, () => (matches(frame(), match) ? null : frame()), timeoutMs),
    exited,
    unmount,
  };
}
