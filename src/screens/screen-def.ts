import { createContext, useContext, type ComponentType } from 'react';
import type { ActionDef } from '../keys/keymap';
import type { ScreenInstance } from '../state/ui-store';

/** What a screen component gets: its stack entry and the cells it may draw in. */
export interface ScreenProps {
  instance: ScreenInstance;
  width: number;
  height: number;
}

/** One entry of the screen registry (src/app/screens.ts). */
export interface ScreenDef {
  /** Palette command and stack id, e.g. "containers". */
  id: string;
  /** Breadcrumb and help title, e.g. "Containers". */
  title: string;
  /** Other palette names, e.g. ["mc", "apps"]. */
  aliases: string[];
  /** One line for the palette and :help. */
  summary: string;
  /** The screen takes one argument after the command (":logs 1234"). */
  arg?: {
    name: string;
    required?: boolean;
    /** Returns a message saying what is allowed, or null when the value is fine. */
    validate?: (value: string) => string | null;
  };
  /** Keys this screen adds, with context = id (shown in help on this screen). */
  actions?: ActionDef[];
  component: ComponentType<ScreenProps>;
}

/** The screen visit a component is rendered in (for per-visit view state). */
export const ScreenInstanceContext = createContext<ScreenInstance | null>(null);

export function useScreenInstance(): ScreenInstance {
  const v = useContext(ScreenInstanceContext);
  if (!v) throw new Error('useScreenInstance outside a screen');
  return v;
}
