import React from 'react';
import { Text } from 'ink';
import { fit } from '../text/fit';
import { useTone, type Tone } from './theme';

/** Bar of `width` cells for used/max: "█████░░░░░". */
export function gaugeBar(used: number, max: number, width: number): string {
  if (width <= 0) return '';
  const ratio = max > 0 ? Math.min(1, Math.max(0, used / max)) : 0;
  let filled = Math.round(ratio * width);
  if (used > 0 && filled === 0) filled = 1;
  return '█'.repeat(filled) + '░'.repeat(width - filled);
}

export function gaugeTone(used: number, max: number): Tone {
  const ratio = max > 0 ? used / max : 1;
  if (ratio >= 0.9) return 'error';
  if (ratio >= 0.75) return 'warn';
  return 'ok';
}

export interface GaugeProps {
  label: string;
  labelWidth: number;
  width: number;
  /** Null: only the maximum is known (shown as "max N", or "unlimited" for a null max). */
  used: number | null;
  max: number | null;
  unit?: string;
}

/** One labelled limit: a bar with "used / max  pct" when usage is known, else the max alone. */
export function Gauge({ label, labelWidth, width, used, max, unit = '' }: GaugeProps): React.JSX.Element {
  const tone = useTone();
  const head = fit(label, labelWidth);
  const u = unit ? ` ${unit}` : '';
  if (used === null || max === null) {
    const text = max === null ? 'unlimited' : `max ${max}${u}`;
    return (
      <Text wrap="truncate">
        {head} <Text color={tone(max === null ? 'accent' : undefined)}>{text}</Text>
      </Text>
    );
  }
  const numbers = `${used} / ${max}${u}`;
  const pct = max > 0 ? `${Math.round((used / max) * 100)}%` : '';
  const barWidth = Math.max(5, Math.min(40, width - labelWidth - numbers.length - pct.length - 6));
  return (
    <Text wrap="truncate">
      {head} <Text color={tone(gaugeTone(used, max))}>{gaugeBar(used, max, barWidth)}</Text> {`${numbers}  ${pct}`}
    </Text>
  );
}
