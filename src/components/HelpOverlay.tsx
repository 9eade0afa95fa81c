import React from 'react';
import { Box, Text } from 'ink';
import type { ActionDef } from '../keys/keymap';
import { displayKey } from '../keys/key-event';
import { fit } from '../text/fit';
import { useTone } from './theme';

export interface HelpSection {
  title: string;
  actions: readonly ActionDef[];
  /** Why an action cannot run right now (shown greyed with the reason), or null. */
  disabledReason?: (actionId: string) => string | null;
}

export interface HelpCommand {
  name: string;
  aliases: string[];
  summary: string;
  argName?: string;
}

export interface HelpLine {
  text: string;
  heading?: boolean;
  /** An action that cannot run right now. */
  disabled?: boolean;
}

export const KEY_COLUMN = 18;

export function keysText(keys: readonly string[]): string {
  return keys.map(displayKey).join(' ');
}

/** The help text, one entry per line: generated from the keymap and the palette commands. */
export function helpLines(sections: readonly HelpSection[], commands: readonly HelpCommand[]): HelpLine[] {
  const out: HelpLine[] = [];
  for (const s of sections) {
    if (s.actions.length === 0) continue;
    if (out.length) out.push({ text: '' });
    out.push({ text: s.title, heading: true });
    for (const a of s.actions) {
      if (a.keys.length === 0) continue;
      const reason = s.disabledReason?.(a.id) ?? null;
      const text = `  ${fit(keysText(a.keys), KEY_COLUMN - 2)}${a.description}`;
      out.push(reason === null ? { text } : { text: `${text} (not now: ${reason})`, disabled: true });
    }
  }
  if (commands.length) {
    if (out.length) out.push({ text: '' });
    out.push({ text: 'Commands (type : first)', heading: true });
    for (const c of commands) {
      const name = `:${c.name}${c.argName ? ` [${c.argName}]` : ''}`;
      const aliases = c.aliases.length ? ` (${c.aliases.map((a) => `:${a}`).join(' ')})` : '';
      out.push({ text: `  ${fit(name, KEY_COLUMN - 2)}${c.summary}${aliases}` });
    }
  }
  return out;
}

export interface HelpOverlayProps {
  lines: readonly HelpLine[];
  scroll: number;
  width: number;
  height: number;
}

/** Help: a scrollable list of keys and commands. Always fits in `height` lines. */
export function HelpOverlay({ lines, scroll, width, height }: HelpOverlayProps): React.JSX.Element {
  const tone = useTone();
  const room = Math.max(1, height - 1);
  const maxScroll = Math.max(0, lines.length - room);
  const top = Math.min(scroll, maxScroll);
  const shown = lines.slice(top, top + room);
  const more = lines.length > room ? `  lines ${top + 1}-${top + shown.length} of ${lines.length}, j/k scroll` : '';
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text wrap="truncate">
        <Text bold color={tone('accent')}>
          Help
        </Text>
        <Text color={tone('muted')}>{`  esc closes${more}`}</Text>
      </Text>
      {shown.map((l, i) => (
        <Text key={top + i} bold={l.heading} color={l.disabled ? tone('muted') : undefined} wrap="truncate">
          {l.text === '' ? ' ' : l.text}
        </Text>
      ))}
    </Box>
  );
}

/** The largest useful scroll offset, so scrolling stops at the end. */
export function maxHelpScroll(lineCount: number, height: number): number {
  return Math.max(0, lineCount - Math.max(1, height - 1));
}
