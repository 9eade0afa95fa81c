import React from 'react';
import { Text } from 'ink';
import { useTone, type Tone } from './theme';

const BARS = '▁▂▃▄▅▆▇█';

/** The last `width` values as block characters scaled between their min and max (or 0..max). */
export function sparkline(values: readonly number[], width: number, options: { fromZero?: boolean } = {}): string {
  if (width <= 0 || values.length === 0) return '';
  const shown = values.slice(-width).map((v) => (Number.isFinite(v) ? v : 0));
  const max = Math.max(...shown);
  const min = options.fromZero ? 0 : Math.min(...shown);
  const span = max - min;
  return shown.map((v) => (span <= 0 ? BARS[max > 0 ? BARS.length - 1 : 0]! : BARS[Math.round(((v - min) / span) * (BARS.length - 1))]!)).join('');
}

export function Sparkline({ values, width, tone, fromZero }: { values: readonly number[]; width: number; tone?: Tone; fromZero?: boolean }): React.JSX.Element {
  const t = useTone();
  return <Text color={t(tone)}>{sparkline(values, width, { fromZero })}</Text>;
}
