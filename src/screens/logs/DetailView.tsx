import React from 'react';
import { Box, Text } from 'ink';
import { useTone } from '../../components/theme';
import { detailFields, statusTone, timeDetail } from '../../log-records/rows';
import type { LogEntry } from '../../state/logs/store';

const LABEL = 17;

/** Every line of the detail view: label + value, long values wrapped under the value column. */
export function detailLines(entry: LogEntry, width: number, mask: (s: string) => string, zoneName?: string | null): { label: string; text: string }[] {
  const room = Math.max(10, width - LABEL - 1);
  const out: { label: string; text: string }[] = [];
  for (const f of detailFields(entry, mask, zoneName)) {
    const chars = [...f.value];
    for (let i = 0; i === 0 || i < chars.length; i += room) out.push({ label: i === 0 ? f.label : '', text: chars.slice(i, i + room).join('') });
  }
  return out;
}

export interface DetailViewProps {
  entry: LogEntry;
  scroll: number;
  width: number;
  height: number;
  mask: (s: string) => string;
  /** The record's pull zone name, when known. */
  zoneName?: string | null;
}

/** One record in full: every field the API returns, nothing cut (long values wrap). */
export function DetailView({ entry, scroll, width, height, mask, zoneName }: DetailViewProps): React.JSX.Element {
  const tone = useTone();
  const lines = detailLines(entry, width, mask, zoneName);
  const body = Math.max(1, height - 2);
  const start = Math.max(0, Math.min(scroll, lines.length - body));
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text wrap="truncate">
        <Text bold>Record </Text>
        <Text color={tone(statusTone(entry.statusCode))}>{entry.statusCode}</Text>
        <Text color={tone('muted')}>{`  ${timeDetail(entry.timestamp)}  ·  y copies the request id, Y the JSON  ·  esc closes`}</Text>
      </Text>
      <Box flexDirection="column" height={body} overflow="hidden">
        {lines.slice(start, start + body).map((l, i) => (
          <Text key={i} wrap="truncate">
            <Text color={tone('muted')}>{l.label.padEnd(LABEL)}</Text> {l.text}
          </Text>
        ))}
      </Box>
      <Text color={tone('muted')} wrap="truncate">
        {lines.length > body ? `lines ${start + 1}-${Math.min(lines.length, start + body)} of ${lines.length} (j/k scroll)` : ' '}
      </Text>
    </Box>
  );
}
