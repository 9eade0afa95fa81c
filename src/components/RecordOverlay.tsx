import React from 'react';
import { Box, Text } from 'ink';
import { fit } from '../text/fit';
import { useTone } from './theme';

export interface RecordOverlayProps {
  /** Terminal-safe already. */
  title: string;
  /** Terminal-safe lines, each at most `width` cells (see recordLines). */
  lines: readonly string[];
  scroll: number;
  masked: boolean;
  width: number;
  height: number;
}

/** The largest scroll that still fills the window (title and footer take a line each). */
export function maxRecordScroll(lineCount: number, height: number): number {
  return Math.max(0, lineCount - Math.max(1, height - 2));
}

/** One row's record as JSON, full screen: a title, the lines that fit, and where the window is. */
export function RecordOverlay({ title, lines, scroll, masked, width, height }: RecordOverlayProps): React.JSX.Element {
  const tone = useTone();
  const body = Math.max(1, height - 2);
  const top = Math.min(scroll, maxRecordScroll(lines.length, height));
  const shown = lines.slice(top, top + body);
  const where = lines.length <= body ? `${lines.length} lines` : `lines ${top + 1}-${top + shown.length} of ${lines.length}`;
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text wrap="truncate">
        <Text bold>{fit(`Raw record · ${title}`, Math.max(10, width - 40)).trimEnd()}</Text>
        <Text color={tone('muted')}>{`  as the server sent it${masked ? ' · secrets masked' : ''}`}</Text>
      </Text>
      <Box flexDirection="column" height={body} overflow="hidden">
        {shown.map((l, i) => (
          <Text key={i} wrap="truncate">
            {l === '' ? ' ' : l}
          </Text>
        ))}
      </Box>
      <Text color={tone('muted')} wrap="truncate">{`${where} · j/k PgUp/PgDn g/G scroll · y copy · esc close`}</Text>
    </Box>
  );
}
