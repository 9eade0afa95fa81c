/**
 * Periodic refresh for the visible screen. One request at a time: a tick that comes while the
 * previous request is still in flight is skipped, never queued. stop() aborts the request in
 * flight. Started by the screen on mount and stopped on unmount, so hidden screens do not poll.
 */
export interface PollerState {
  running: boolean;
  paused: boolean;
  inFlight: boolean;
  lastSuccessAt: number | null;
  lastError: unknown;
  lastErrorAt: number | null;
  /** Requests started. */
  runs: number;
  /** Ticks skipped because a request was in flight or the poller was paused. */
  skipped: number;
}

export interface Timers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface PollerOptions<T> {
  intervalMs: number;
  task: (signal: AbortSignal) => Promise<T>;
  onSuccess?: (value: T, at: number) => void;
  onError?: (error: unknown, at: number) => void;
  /** After every change of state (start, stop, pause, request start/end). */
  onState?: (state: PollerState) => void;
  now?: () => number;
  timers?: Timers;
}

export interface Poller {
  start(): void;
  stop(): void;
  pause(): void;
  resume(): void;
  /** Runs a request now unless one is in flight, in which case it waits for that one. */
  refreshNow(): Promise<void>;
  readonly state: PollerState;
}

const realTimers: Timers = {
  setInterval: (fn, ms) => {
    const h = setInterval(fn, ms);
    h.unref?.();
    return h;
  },
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
};

export function createPoller<T>(options: PollerOptions<T>): Poller {
  const now = options.now ?? Date.now;
  const timers = options.timers ?? realTimers;
  if (!(options.intervalMs > 0)) throw new Error(`poll interval must be above 0 ms, got ${options.intervalMs}`);
  const state: PollerState = {
    running: false,
    paused: false,
    inFlight: false,
    lastSuccessAt: null,
    lastError: null,
    lastErrorAt: null,
    runs: 0,
    skipped: 0,
  };
  let timer: unknown = null;
  let controller: AbortController | null = null;
  let current: Promise<void> | null = null;
  const changed = () => options.onState?.({ ...state });

  function run(): Promise<void> {
    if (current) return current;
    const ctl = new AbortController();
    controller = ctl;
    state.inFlight = true;
    state.runs += 1;
    changed();
    const p = (async () => {
      try {
        const value = await options.task(ctl.signal);
        if (ctl.signal.aborted) return;
        const at = now();
        state.lastSuccessAt = at;
        state.lastError = null;
        state.lastErrorAt = null;
        options.onSuccess?.(value, at);
      } catch (error) {
        if (ctl.signal.aborted) return;
        const at = now();
        state.lastError = error;
        state.lastErrorAt = at;
        options.onError?.(error, at);
      } finally {
        if (controller === ctl) {
          controller = null;
          current = null;
          state.inFlight = false;
          changed();
        }
      }
    })();
    current = p;
    return p;
  }

  function tick(): void {
    if (!state.running) return;
    if (state.paused || state.inFlight) {
      state.skipped += 1;
      return;
    }
    void run();
  }

  return {
    get state() {
      return { ...state };
    },
    start() {
      if (state.running) return;
      state.running = true;
      timer = timers.setInterval(tick, options.intervalMs);
      changed();
      if (!state.paused) void run();
    },
    stop() {
      if (!state.running && !state.inFlight) return;
      state.running = false;
      if (timer !== null) timers.clearInterval(timer);
      timer = null;
      const ctl = controller;
      controller = null;
      current = null;
      state.inFlight = false;
      ctl?.abort();
      changed();
    },
    pause() {
      if (state.paused) return;
      state.paused = true;
      changed();
    },
    resume() {
      if (!state.paused) return;
      state.paused = false;
      changed();
      if (state.running) void run();
    },
    refreshNow() {
      return run();
    },
  };
}

/** A poller shared by every mounted view of one store, with the store's pause switch. */
export interface SharedPoller {
  /** Joins polling (creating and starting the poller for the first view); returns the way out. */
  watch(): () => void;
  readonly current: Poller | null;
  /** The pause switch: kept while no view watches, applied when one comes back. */
  readonly paused: boolean;
  setPaused(paused: boolean): void;
  /** Flips the switch; returns the new value. */
  togglePaused(): boolean;
}

/**
 * Created on the first watch, running while any view watches, stopped when the last one leaves:
 * a hidden screen never polls. `onPausedChange` runs on each change of the pause switch, before
 * the poller pauses or resumes (a resume refreshes at once); `onWatch` runs after each join (to
 * show the pause badge and the age of data already held).
 */
export function sharedPoller(options: {
  create: () => Poller;
  onPausedChange?: (paused: boolean) => void;
  onWatch?: () => void;
  onLastLeave?: () => void;
}): SharedPoller {
  let poller: Poller | null = null;
  let watchers = 0;
  let paused = false;
  const setPaused = (next: boolean) => {
    if (next === paused) return;
    paused = next;
    options.onPausedChange?.(paused);
    if (paused) poller?.pause();
    else poller?.resume();
  };
  return {
    get current() {
      return poller;
    },
    get paused() {
      return paused;
    },
    setPaused,
    togglePaused() {
      setPaused(!paused);
      return paused;
    },
    watch() {
      watchers += 1;
      poller ??= options.create();
      if (paused) poller.pause();
      poller.start();
      options.onWatch?.();
      let left = false;
      return () => {
        if (left) return;
        left = true;
        watchers -= 1;
        if (watchers === 0) {
          poller?.stop();
          options.onLastLeave?.();
        }
      };
    },
  };
}

interface PauseBadge {
  getState(): { setPaused(paused: boolean): void; recordSuccess(at: number): void };
}

/**
 * sharedPoller's hooks for a screen store: the pause is mirrored in the store (`paused`) and in
 * the status bar's badge, and each join shows the badge and the age of the data already held.
 */
export function statusBarHooks(
  ui: PauseBadge,
  store: { setPaused(paused: boolean): void; paused(): boolean; loadedAt(): number | null },
): { onPausedChange: (paused: boolean) => void; onWatch: () => void } {
  return {
    onPausedChange: (paused) => {
      store.setPaused(paused);
      ui.getState().setPaused(paused);
    },
    onWatch: () => {
      if (store.paused()) ui.getState().setPaused(true);
      const at = store.loadedAt();
      if (at !== null) ui.getState().recordSuccess(at);
    },
  };
}
