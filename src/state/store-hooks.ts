import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { DomainStores, StoreFactory } from './domain-stores';
import type { UiState, UiStore } from './ui-store';

/** What the header shows about where the console is connected; no secrets in here. */
export interface ConnectionInfo {
  profileName: string | null;
  emulator: boolean;
  endpoint: string;
  readOnly: boolean;
  color: boolean;
}

/** What the app hands every screen: the console's stores and its connection info. */
export interface ConsoleValue {
  stores: DomainStores;
  info: ConnectionInfo;
}

export const ConsoleContext = createContext<ConsoleValue | null>(null);

export function useConsole(): ConsoleValue {
  const v = useContext(ConsoleContext);
  if (!v) throw new Error('useConsole outside ConsoleContext');
  return v;
}

/** The ui store itself, for handlers that read or change it at key time. */
export function useUiStore(): UiStore {
  return useConsole().stores.deps.ui;
}

/** Reads the ui store through a selector (re-renders only when the selected value changes). */
export function useUi<T>(selector: (s: UiState) => T): T {
  return useStore(useUiStore(), selector);
}

/** The console's store made by `factory` (created on first use, kept until the console exits). */
export function useDomainStore<S>(factory: StoreFactory<S>): S {
  return useConsole().stores.get(factory);
}

/** Shorthand for useStore(store, selector) on any vanilla store. */
export function useSelect<S, T>(store: StoreApi<S>, selector: (s: S) => T): T {
  return useStore(store, selector);
}
