import React from 'react';
import { Box, Text } from 'ink';
import { diffLineText, type DiffLine } from '../text/diff';
import { terminalSafe } from '../text/terminal-safe';
import { useTone } from './theme';

export interface ConfirmProps {
  title: string;
  detail?: string;
  lines: readonly DiffLine[];
  yesLabel?: string;
  yesKeys: string;
  noKeys: string;
  width: number;
  height: number;
}

/**
 * The one confirmation box: for a change to the platform it lists, field by field, what will be
 * sent. It never opens in read-only mode (ui.confirmMutation refuses first).
 */
export function Confirm({ title, detail, lines, yesLabel = 'yes', yesKeys, noKeys, width, height }: ConfirmProps): React.JSX.Element {
  const tone = useTone();
  const fixed = 2 + 1 + (detail ? 1 : 0) + 1 + (lines.length ? 1 : 0);
  const room = Math.max(0, height - fixed - 1);
  const shown = lines.length > room ? lines.slice(0, Math.max(0, room - 1)) : lines;
  const hidden = lines.length - shown.length;
  return (
    <Box
      flexDirection="column"
      width={width}
      height={Math.min(height, fixed + shown.length + (hidden ? 1 : 0))}
      borderStyle="round"
      borderColor={tone('warn')}
      paddingX={1}
      overflow="hidden"
    >
      <Text bold wrap="truncate">
        {terminalSafe(title)}
      </Text>
      {detail ? <Text wrap="truncate">{terminalSafe(detail)}</Text> : null}
      {lines.length ? <Text color={tone('muted')}>What will be sent:</Text> : null}
      {shown.map((l, i) => (
        <Text key={i} wrap="truncate" color={tone(l.kind === 'added' ? 'ok' : l.kind === 'removed' ? 'error' : 'warn')}>
          {terminalSafe(diffLineText(l))}
        </Text>
      ))}
      {hidden ? <Text color={tone('muted')}>{`… and ${hidden} more field${hidden === 1 ? '' : 's'}`}</Text> : null}
      <Text wrap="truncate">
        <Text bold>{yesKeys}</Text> {yesLabel}
        {'  '}
        <Text bold>{noKeys}</Text> cancel
      </Text>
    </Box>
  );
}
