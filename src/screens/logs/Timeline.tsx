import React, { memo, useMemo } from 'react';
import { Box, Text } from 'ink';
import { useTheme, useTone } from '../../components/theme';
import type { LogsStore } from '../../state/logs/store';
import { useSelect } from '../../state/store-hooks';
import { rowLine } from './row-line';
import { TIMELINE_LINES, timelineLines } from './timeline-lines';

export { TIMELINE_LINES } from './timeline-lines';

/**
 * The timeline panel above the log table: requests per bucket by status class, with a cursor.
 * Each line is one <Text> with its colours in the string (as the stream's rows: a <Text> per
 * coloured stretch of bars cost every frame, the table's too, its layout time). Drawn again only
 * when the timeline changes, not on each key that scrolls the table.
 */
export const Timeline = memo(function Timeline({ store, width, height }: { store: LogsStore; width: number; height: number }): React.JSX.Element {
  const { color } = useTheme();
  const tone = useTone();
  const timeline = useSelect(store, (x) => x.timeline);
  const pattern = useSelect(store, (x) => x.local.pattern);
  const lines = useMemo(
    () =>
      timelineLines({ timeline, color, pattern })
        .slice(0, Math.min(height, TIMELINE_LINES))
        .map((parts) => rowLine(parts, false, tone)),
    [timeline, color, pattern, height], // eslint-disable-line react-hooks/exhaustive-deps
  );
  return (
    <Box flexDirection="column" width={width} height={lines.length} overflow="hidden">
      {lines.map((l, i) => (
        <Text key={i} wrap="truncate">
          {l === '' ? ' ' : l}
        </Text>
      ))}
    </Box>
  );
});
