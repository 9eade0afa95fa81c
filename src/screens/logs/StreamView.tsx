import React from 'react';
import { Box, Text } from 'ink';
import { useTone } from '../../components/theme';
import { headerText, rowSegments, wrapSegments, type Segment, type StreamLayout } from '../../logs-view/rows';
import type { LogEntry, ViewRow } from '../../state/logs-store';
import { rowLine } from './row-line';

export interface StreamViewProps {
  rows: ViewRow[];
  selected: number;
  layout: StreamLayout;
  wrap: boolean;
  highlight: RegExp | null;
  /** Lines for the rows (the header line is extra). */
  height: number;
  emptyText: string;
}

/** One line of a row: a single <Text> with its colours built into the string (see row-line.ts). */
function SegmentsLine({ segments, selected }: { segments: Segment[]; selected: boolean }): React.JSX.Element {
  const tone = useTone();
  return <Text wrap="truncate">{rowLine(segments, selected, tone)}</Text>;
}

interface RowProps {
  entry: LogEntry | null;
  selected: boolean;
  layout: StreamLayout;
  wrap: boolean;
  highlight: RegExp | null;
}

/** One record (or a context separator); re-rendered only when one of its props changes. */
const Row = React.memo(function Row({ entry, selected, layout, wrap, highlight }: RowProps): React.JSX.Element {
  const tone = useTone();
  if (entry === null) return <Text color={tone('muted')}>--</Text>;
  const segs = rowSegments(entry, layout, { highlight, wrap });
  if (!wrap) return <SegmentsLine segments={segs} selected={selected} />;
  const lines = wrapSegments(segs, layout.width);
  return (
    <Box flexDirection="column">
      {lines.map((l, i) => (
        <SegmentsLine key={i} segments={l} selected={selected} />
      ))}
    </Box>
  );
});

/**
 * The visible window of the log stream: the column header and the rows the store picked from
 * the ring buffer (never more than fit), the selected one inverse.
 */
export function StreamView({ rows, selected, layout, wrap, highlight, height, emptyText }: StreamViewProps): React.JSX.Element {
  const tone = useTone();
  return (
    <Box flexDirection="column" width={layout.width} height={height + 1} overflow="hidden">
      <Text bold wrap="truncate">
        {headerText(layout)}
      </Text>
      <Box flexDirection="column" height={height} overflow="hidden">
        {rows.length === 0 ? (
          <Text color={tone('muted')} wrap="truncate">
            {emptyText}
          </Text>
        ) : (
          rows.map((r) => <Row key={r.entry ? r.entry.requestId ?? `p${r.pos}` : `sep${r.pos}`} entry={r.entry} selected={r.pos === selected} layout={layout} wrap={wrap} highlight={highlight} />)
        )}
      </Box>
    </Box>
  );
}
