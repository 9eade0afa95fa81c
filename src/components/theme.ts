import { createContext, useContext } from 'react';
import type { Tone } from '../text/tone';

export type { Tone } from '../text/tone';

const COLORS: Record<Tone, string> = {
  ok: 'green',
  warn: 'yellow',
  error: 'red',
  muted: 'gray',
  accent: 'cyan',
  info: 'blue',
};

export interface Theme {
  /** False with --no-color or NO_COLOR: no colour at all, meaning carried by text. */
  color: boolean;
}

export const ThemeContext = createContext<Theme>({ color: true });

/** Returns the Ink colour for a tone, or undefined when colours are off. */
export function useTone(): (tone: Tone | undefined) => string | undefined {
  const { color } = useContext(ThemeContext);
  return (tone) => (color && tone ? COLORS[tone] : undefined);
}

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
