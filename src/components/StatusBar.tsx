import React from 'react';
import { Box, Text } from 'ink';
import type { ActionDef } from '../keys/keymap';
import { ageText, type RequestStatus, type StatusMessage } from '../text/status';
import { KeyHints } from './KeyHints';
import { fit } from '../text/fit';
import { terminalSafe } from '../text/terminal-safe';
import { useTone, type Tone } from './theme';

export interface StatusBarProps {
  width: number;
  now: number;
  request: RequestStatus;
  message: StatusMessage | null;
  hints: readonly ActionDef[];
}

export const STATUS_BAR_HEIGHT = 2;

/**
 * Two lines. First: data age, then the last request error (red, until the next success) or the
 * latest message. Second: key hints, or the message when the error took the first line.
 */
export function StatusBar({ width, now, request, message, hints }: StatusBarProps): React.JSX.Element {
  const tone = useTone();
  const live = message && (message.ttlMs === null || now - message.at < message.ttlMs) ? message : null;
  const messages: { text: string; tone: Tone | undefined }[] = [];
  if (request.lastError) messages.push({ text: `✖ ${request.lastError}`, tone: 'error' });
  if (live) messages.push({ text: live.text, tone: live.level === 'error' ? 'error' : live.level === 'warn' ? 'warn' : 'info' });
  const age = ageText(request, now);
  const first = messages[0];
  const second = messages[1];
  const restWidth = Math.max(0, width - age.length - (age ? 2 : 0));
  return (
    <Box flexDirection="column" width={width} height={STATUS_BAR_HEIGHT}>
      <Box height={1}>
        <Text wrap="truncate">
          <Text color={tone('muted')}>{age}</Text>
          {age && first ? '  ' : ''}
          {first ? <Text color={tone(first.tone)}>{fit(first.text, restWidth).trimEnd()}</Text> : null}
        </Text>
      </Box>
      <Box height={1}>
        {second ? (
          <Text color={tone(second.tone)} wrap="truncate">
            {terminalSafe(second.text)}
          </Text>
        ) : (
          <KeyHints actions={hints} width={width} />
        )}
      </Box>
    </Box>
  );
}
