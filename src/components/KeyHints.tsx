import React from 'react';
import { Text } from 'ink';
import type { ActionDef } from '../keys/keymap';
import { displayKey } from '../keys/key-event';
import { useTone } from './theme';

/**
 * "key label" pairs for actions that have a hint, the most important first (ActionDef.priority;
 * equal ones in the order given), as many as fit in `width`.
 */
export function keyHintText(actions: readonly ActionDef[], width: number): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  let used = 0;
  const ranked = actions.map((a, i) => ({ a, i })).sort((x, y) => (y.a.priority ?? 0) - (x.a.priority ?? 0) || x.i - y.i);
  for (const { a } of ranked) {
    if (!a.hint || a.keys.length === 0 || seen.has(a.hint)) continue;
    const part = `${displayKey(a.keys[0]!)} ${a.hint}`;
    const add = (parts.length ? 2 : 0) + part.length;
    if (used + add > width) continue;
    parts.push(part);
    seen.add(a.hint);
    used += add;
  }
  return parts.join('  ');
}

export function KeyHints({ actions, width }: { actions: readonly ActionDef[]; width: number }): React.JSX.Element {
  const tone = useTone();
  return (
    <Text color={tone('muted')} wrap="truncate">
      {keyHintText(actions, width)}
    </Text>
  );
}
