import { createContext, useContext } from 'react';
import type { ScreenDef } from './screen-def';

/** The screen registry, handed down so screens (home) can list it without importing it. */
export const RegistryContext = createContext<readonly ScreenDef[]>([]);

export function useRegistry(): readonly ScreenDef[] {
  return useContext(RegistryContext);
}
