import React from 'react';
import { Text } from 'ink';
import { useTone } from './theme';
import { terminalSafe } from '../text/terminal-safe';

export interface ListTitleProps {
  title: string;
  /** Nothing loaded yet: the count says `loading…`. */
  loading: boolean;
  /** Rows in the list, with the noun for one and for several (`1 profile`, `3 profiles`). */
  count?: number;
  noun?: readonly [one: string, several: string];
  /** What follows the count (`enter: origin groups and origins`). */
  hint?: string;
  /** Instead of count and hint: the whole muted text (a screen whose summary says more). */
  summary?: string;
  /** Errors to show after it (nulls left out), each made safe to draw. */
  errors?: readonly (string | null | undefined)[];
}

/** The one-line title of a list screen: title, count, hint or loading, and its errors. */
export function ListTitle({ title, loading, count = 0, noun, hint, summary, errors = [] }: ListTitleProps): React.JSX.Element {
  const tone = useTone();
  const counted = noun ? `${count} ${count === 1 ? noun[0] : noun[1]}` : '';
  const text = summary ?? (loading ? 'loading…' : [counted, hint].filter(Boolean).join(' · '));
  return (
    <Text wrap="truncate">
      <Text bold>{title}</Text>
      {text ? <Text color={tone('muted')}>{`  ${text}`}</Text> : null}
      {errors.map((e, i) => (e ? <Text key={i} color={tone('error')}>{`  ✖ ${terminalSafe(e)}`}</Text> : null))}
    </Text>
  );
}
