import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { SessionStores, StoreFactory } from './domain-stores';
import type { ScreenInstance, UiState } from './ui-store';

/** What the header shows about the session; no secrets in here. */
export interface SessionInfo {
  profileName: string | null;
  emulator: boolean;
  endpoint: string;
  readOnly: boolean;
  color: boolean;
}

export interface SessionValue {
  stores: SessionStores;
  info: SessionInfo;
}

export const SessionContext = createContext<SessionValue | null>(null);

export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error('useSession outside SessionContext');
  return v;
}

/** Reads the ui store through a selector (re-renders only when the selected value changes). */
export function useUi<T>(selector: (s: UiState) => T): T {
  return useStore(useSession().stores.deps.ui, selector);
}

/** The session's store made by `factory` (created on first use, kept for the session). */
export function useDomainStore<S>(factory: StoreFactory<S>): S {
  return useSession().stores.get(factory);
}

/** Shorthand for useStore(store, selector) on any vanilla store. */
export function useSelect<S, T>(store: StoreApi<S>, selector: (s: S) => T): T {
  return useStore(store, selector);
}

/** The screen instance a component is rendered in (for per-visit view state). */
export const ScreenInstanceContext = createContext<ScreenInstance | null>(null);

export function useScreenInstance(): ScreenInstance {
  const v = useContext(ScreenInstanceContext);
  if (!v) throw new Error('useScreenInstance outside a screen');
  return v;
}
