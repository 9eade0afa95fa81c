import React from 'react';
import { Text } from 'ink';
import type { TextState } from '../keys/text-edit';
import { useTone } from './theme';

export interface TextFieldProps {
  state: TextState;
  /** Cells available; long values scroll so the cursor stays visible. */
  width: number;
  focused?: boolean;
  placeholder?: string;
  mask?: string;
}

/**
 * A one-line text field. It only draws: keys reach it through the single input owner (an input
 * layer whose `text` handler calls editText), so no key typed quickly is ever lost.
 */
export function TextField({ state, width, focused = true, placeholder, mask }: TextFieldProps): React.JSX.Element {
  const tone = useTone();
  const chars = [...(mask ? mask.repeat([...state.value].length) : state.value)];
  if (chars.length === 0 && placeholder && !focused) return <Text color={tone('muted')}>{placeholder}</Text>;
  const room = Math.max(1, width - 1);
  const start = Math.max(0, state.cursor - room + 1);
  const shown = chars.slice(start, start + room);
  const at = state.cursor - start;
  // a value cut at either end says so: … where text is hidden (never over the cursor)
  if (start > 0 && at > 0) shown[0] = '…';
  if (start + room < chars.length && at < shown.length - 1) shown[shown.length - 1] = '…';
  const before = shown.slice(0, at).join('');
  const under = shown[at] ?? ' ';
  const after = shown.slice(at + 1).join('');
  if (!focused) return <Text wrap="truncate">{shown.join('')}</Text>;
  return (
    <Text wrap="truncate">
      {before}
      <Text inverse>{under}</Text>
      {after}
      {chars.length === 0 && placeholder ? <Text color={tone('muted')}>{placeholder}</Text> : null}
    </Text>
  );
}
