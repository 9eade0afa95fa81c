import { after } from 'node:test';
import { PassThrough } from 'node:stream';
import { EventEmitter } from 'node:events';
import React from 'react';
import { render } from 'ink';
import type { Api } from '../../src/api/index';
import { App } from '../../src/app/App';
import { appKeymap } from '../../src/app/app-keymap';
import { HOME_SCREEN, SCREENS } from '../../src/app/screens';
import { resolveSettings, type Settings } from '../../src/config/settings';
import { DomainStores } from '../../src/state/domain-stores';
import type { ConnectionInfo } from '../../src/state/store-hooks';
import { createUiStore, type UiStore } from '../../src/state/ui-store';
import { keyBytes } from './pty';
import { until } from './wait';

/** A terminal's output side as Ink sees it: a size, and the frames written to it. */
class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  frames: string[] = [];
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write(chunk: string): boolean {
    this.frames.push(chunk);
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
  /** Resolves when the console quits (app.quit, ctrl-c) or is unmounted. */
  readonly exited: Promise<void>;
  unmount(): void;
}

const matches = (text: string, match: string | RegExp) => (typeof match === 'string' ? text.includes(match) : match.test(text));

const strip = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\x1b\][^\x07]*\x07/g, '');

/**
 * The console rendered in this process: the real App, stores and keymap, drawn by Ink to a fake
 * terminal (debug mode: every frame written whole), keys fed to its stdin. A screen test runs in
 * milliseconds and needs no pseudo-terminal; what it cannot see is the terminal itself (the
 * alternate screen, restoring it, resizes from outside), which the pty tests keep.
 */
export function renderConsole(api: Api, options: { cols?: number; rows?: number; settings?: Partial<Settings> } = {}): InProcessConsole {
  let quit: () => void = () => {};
  const exited = new Promise<void>((resolve) => (quit = resolve));
  const settings: Settings = { ...resolveSettings({}, {}, {}), ...options.settings };
  const stdout = new FakeStdout(options.cols ?? 120, options.rows ?? 30);
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
  stdin.setEncoding('utf8');
  const { keymap } = appKeymap(settings.keys);
  const ui = createUiStore({ readOnly: settings.readOnly, home: HOME_SCREEN, onQuit: () => unmount() });
  const stores = new DomainStores({ api, settings, ui, now: Date.now });
  const info: ConnectionInfo = { profileName: settings.profileName, emulator: true, endpoint: 'emulator', readOnly: settings.readOnly, color: false };
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
    waitFor: (match, timeoutMs = 5000) => until(`${String(match)} in the frame`, () => (matches(frame(), match) ? frame() : null), timeoutMs),
    waitForGone: (match, timeoutMs = 5000) => until(`${String(match)} to leave the frame`, () => (matches(frame(), match) ? null : frame()), timeoutMs),
    exited,
    unmount,
  };
}
