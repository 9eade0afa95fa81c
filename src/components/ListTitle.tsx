import React from 'react';
import { Box, Text } from 'ink';
import { useTone } from './theme';
import { terminalSafe } from '../text/terminal-safe';
import { formatAge } from '../text/fit';

/** A polled list's state for the right of its title: paused, and the age of its data. */
export interface PollState {
  paused: boolean;
  loadedAt: number | null;
  now: number;
}

/** "paused · refreshed 3s ago", "refreshed 3s ago", or "" before the first answer. */
export function pollStateText({ paused, loadedAt, now }: PollState): string {
  return [paused ? 'paused' : '', loadedAt !== null ? `refreshed ${formatAge(now - loadedAt)}` : ''].filter(Boolean).join(' · ');
}

/** An error of a list that may still show its last rows: "refresh failed, showing the last data: …" or "could not load the zones: …". */
export function loadErrorText(error: string | null | undefined, hasData: boolean, what: string): string | null {
  if (!error) return null;
  return hasData ? `refresh failed, showing the last data: ${error}` : `could not load ${what}: ${error}`;
}

/** What a list's table says when it has no rows: `loading…` until the first answer, then `none`. */
export function emptyListText(loadedAt: number | null, none: string): string {
  return loadedAt === null ? 'loading…' : none;
}

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
  /** Right-aligned: what the list is (`page 1 of 3 · 25 zones`), then the poll state when given. */
  status?: string;
  poll?: PollState;
}

/**
 * The one-line title of a list screen: title, count, hint or loading, and its errors; on the
 * right, when given, the page and the poll state (paused, refreshed 3s ago).
 */
export function ListTitle({ title, loading, count = 0, noun, hint, summary, errors = [], status, poll }: ListTitleProps): React.JSX.Element {
  const tone = useTone();
  const counted = noun ? `${count} ${count === 1 ? noun[0] : noun[1]}` : '';
  const text = summary ?? (loading ? 'loading…' : [counted, hint].filter(Boolean).join(' · '));
  const left = (
    <Text wrap="truncate">
      <Text bold>{title}</Text>
      {text ? <Text color={tone('muted')}>{`  ${text}`}</Text> : null}
      {errors.map((e, i) => (e ? <Text key={i} color={tone('error')}>{`  ✖ ${terminalSafe(e)}`}</Text> : null))}
    </Text>
  );
  if (status === undefined && poll === undefined) return left;
  const right = [status ?? '', poll ? pollStateText(poll) : ''].filter(Boolean).join(' · ');
  return (
    <Box height={1}>
      {left}
      <Box flexGrow={1} flexShrink={0} marginLeft={1} justifyContent="flex-end">
        <Text color={tone('muted')}>{right}</Text>
      </Box>
    </Box>
  );
}
