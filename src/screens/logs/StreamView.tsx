import React from 'react';
import { Box, Text } from 'ink';
import { useTone } from '../../components/theme';
import { headerText, rowSegments, wrapSegments, type Segment, type StreamLayout } from '../../log-records/rows';
import type { LogEntry, ViewRow } from '../../state/logs/store';
import { rowLine, type ToneColor } from './row-line';
import { MARK_GLYPH, MARK_GUTTER } from './marks-view';
import { sliceSegments, type WideStream } from '../../log-records/wide-stream';

export interface StreamViewProps {
  rows: ViewRow[];
  selected: number;
  layout: StreamLayout;
  wrap: boolean;
  highlight: RegExp | null;
  /** Lines for the rows (the header line is extra). */
  height: number;
  emptyText: string;
  /** Whether a record is marked; null while there are no marks (no glyph column then). */
  marked?: ((e: LogEntry) => boolean) | null;
  /** Wide mode: every column at full width, the window `offset` cells from the line's start. */
  side?: { stream: WideStream; offset: number } | null;
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
  /** null: no glyph column; else whether this record is marked. */
  marked: boolean | null;
}

/** The glyph column before a row while there are marks. */
function Gutter({ marked }: { marked: boolean }): React.JSX.Element {
  const tone = useTone();
  return (
    <Text color={tone('accent')} bold>
      {marked ? `${MARK_GLYPH} ` : '  '}
    </Text>
  );
}

/** One record (or a context separator); re-rendered only when one of its props changes. */
const Row = React.memo(function Row({ entry, selected, layout, wrap, highlight, marked }: RowProps): React.JSX.Element {
  const tone = useTone();
  if (marked !== null) {
    return (
      <Box flexDirection="row">
        <Gutter marked={marked} />
        <Row entry={entry} selected={selected} layout={layout} wrap={wrap} highlight={highlight} marked={null} />
      </Box>
    );
  }
  if (entry === null) return <Text color={tone('muted')}>--</Text>;
  if (!wrap) return <Text wrap="truncate">{cachedLine(entry, selected, layout, highlight, tone)}</Text>;
  const lines = wrapSegments(rowSegments(entry, layout, { highlight, wrap }), layout.width);
  return (
    <Box flexDirection="column">
      {lines.map((l, i) => (
        <SegmentsLine key={i} segments={l} selected={selected} />
      ))}
    </Box>
  );
});

interface CachedLine {
  layout: StreamLayout;
  highlight: RegExp | null;
  color: string | undefined;
  plain?: string;
  selected?: string;
}

/**
 * The lines of the records drawn lately (a row moving on screen is not built again), in two
 * generations of at most 512: bounded, whatever is scrolled through.
 */
let recentLines = new Map<LogEntry, CachedLine>();
let olderLines = new Map<LogEntry, CachedLine>();

function cachedLine(entry: LogEntry, selected: boolean, layout: StreamLayout, highlight: RegExp | null, tone: ToneColor): string {
  const color = tone('ok');
  const held = recentLines.get(entry);
  const known = held ?? olderLines.get(entry);
  const fresh = !known || known.layout !== layout || known.highlight !== highlight || known.color !== color;
  const c: CachedLine = fresh ? { layout, highlight, color } : known;
  if (fresh || held === undefined) {
    if (held === undefined && recentLines.size >= 512) {
      olderLines = recentLines;
      recentLines = new Map();
    }
    recentLines.set(entry, c);
  }
  const key = selected ? 'selected' : 'plain';
  let line = c[key];
  if (line === undefined) {
    line = rowLine(rowSegments(entry, layout, { highlight }), selected, tone);
    c[key] = line;
  }
  return line;
}

/** A record in wide mode: the part of its full line inside the window. */
const WideRow = React.memo(function WideRow({
  entry,
  selected,
  side,
  width,
  highlight,
}: {
  entry: LogEntry | null;
  selected: boolean;
  side: NonNullable<StreamViewProps['side']>;
  width: number;
  highlight: RegExp | null;
}): React.JSX.Element {
  const tone = useTone();
  if (entry === null) return <Text color={tone('muted')}>--</Text>;
  const segments = sliceSegments(rowSegments(entry, side.stream.layout, { highlight }), side.offset, width);
  return <Text wrap="truncate">{rowLine(segments, selected, tone)}</Text>;
});

/**
 * The visible window of the log stream: the column header and the rows the store picked from
 * the ring buffer (never more than fit), the selected one inverse.
 */
export function StreamView({ rows, selected, layout, wrap, highlight, height, emptyText, marked = null, side }: StreamViewProps): React.JSX.Element {
  const tone = useTone();
  const gutter = marked ? ' '.repeat(MARK_GUTTER) : '';
  if (side && rows.length > 0) {
    return (
      <Box flexDirection="column" width={layout.width + gutter.length} height={height + 1} overflow="hidden">
        <Text bold wrap="truncate">
          {gutter +
            sliceSegments([{ text: headerText(side.stream.layout) }], side.offset, layout.width)
              .map((x) => x.text)
              .join('')}
        </Text>
        <Box flexDirection="column" height={height} overflow="hidden">
          {rows.map((r, i) => {
            const row = <WideRow key={i} entry={r.entry} selected={r.pos === selected} side={side} width={layout.width} highlight={highlight} />;
            if (!marked) return row;
            return (
              <Box key={i} flexDirection="row">
                <Gutter marked={r.entry ? marked(r.entry) : false} />
                {row}
              </Box>
            );
          })}
        </Box>
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={layout.width + gutter.length} height={height + 1} overflow="hidden">
      <Text bold wrap="truncate">
        {gutter + headerText(layout)}
      </Text>
      <Box flexDirection="column" height={height} overflow="hidden">
        {rows.length === 0 ? (
          <Text color={tone('muted')} wrap="truncate">
            {emptyText}
          </Text>
        ) : (
          // one line per row: keyed by the screen line, so a new page updates the rows' texts
          // instead of replacing their elements (and Yoga nodes); wrapped rows keep their record
          rows.map((r, i) => (
            <Row
              key={wrap ? (r.entry ? (r.entry.requestId ?? `p${r.pos}`) : `sep${r.pos}`) : i}
              entry={r.entry}
              selected={r.pos === selected}
              layout={layout}
              wrap={wrap}
              highlight={highlight}
              marked={marked && r.entry ? marked(r.entry) : marked ? false : null}
            />
          ))
        )}
      </Box>
    </Box>
  );
}
