import type { Api } from '../api/index';
import type { Settings } from '../config/settings';
import type { UiStore } from './ui-store';
import type { Timers } from './poller';
import type { LogsSessions } from './logs/session-file';

/** What every domain store is built from. The Api is created once per run and only stores use it. */
export interface StoreDeps {
  api: Api;
  settings: Settings;
  ui: UiStore;
  now: () => number;
  /** The pollers' interval timers (the real ones when absent; tests fire them by hand). */
  timers?: Timers;
  /** Where logs screens keep their setup between runs (none: nothing is kept). */
  sessions?: LogsSessions;
}

export type StoreFactory<S> = (deps: StoreDeps) => S;

/**
 * The console's domain stores, created on first use and kept until it exits, so a screen that
 * is left and opened again shows its last data at once. Keyed by the factory function.
 */
export class DomainStores {
  private readonly cache = new Map<StoreFactory<unknown>, unknown>();
  constructor(readonly deps: StoreDeps) {}

  get<S>(factory: StoreFactory<S>): S {
    if (!this.cache.has(factory)) this.cache.set(factory, factory(this.deps));
    return this.cache.get(factory) as S;
  }
}

/** Milliseconds between refreshes from settings.refreshSeconds (default 5). */
export function refreshIntervalMs(settings: Pick<Settings, 'refreshSeconds'>): number {
  return Math.max(1, settings.refreshSeconds) * 1000;
}

/** The text the status bar and screens show for an error. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
