import React from 'react';
import { Box } from 'ink';
import { useTheme } from '../../components/theme';
import type { LogsStore } from '../../state/logs-store';
import { useSelect } from '../../state/store-hooks';
import { PartsLine } from './Parts';
import { TIMELINE_LINES, timelineLines } from './timeline-lines';

export { TIMELINE_LINES } from './timeline-lines';

/** The timeline panel above the log table: requests per bucket by status class, with a cursor. */
export function Timeline({ store, width, height }: { store: LogsStore; width: number; height: number }): React.JSX.Element {
  const { color } = useTheme();
  const timeline = useSelect(store, (x) => x.timeline);
  const pattern = useSelect(store, (x) => x.local.pattern);
  const lines = timelineLines({ timeline, color, pattern }).slice(0, Math.min(height, TIMELINE_LINES));
  return (
    <Box flexDirection="column" width={width} height={lines.length} overflow="hidden">
      {lines.map((l, i) => (
        <PartsLine key={i} parts={l} />
      ))}
    </Box>
  );
}
