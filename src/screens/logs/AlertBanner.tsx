import React from 'react';
import { Box, Text } from 'ink';
import { useTone } from '../../components/theme';
import { noticeText, type AlertNotice } from '../../state/logs/alerts';
import { terminalSafe } from '../../text/terminal-safe';
import { formatTime } from '../../text/time-format';

/** Lines the banner takes for `notices` (0 when there is nothing to acknowledge). */
export function bannerHeight(notices: readonly AlertNotice[]): number {
  return Math.min(notices.length, MAX_LINES);
}

const MAX_LINES = 3;

const clock = (ms: number) => formatTime(ms, 'clock');

/**
 * Alerts not acknowledged yet, newest first, one line each (at most three, then how many more):
 * a firing rule in the error colour, a cleared one in the ok colour. `ackKey` is the key that
 * acknowledges them, shown on the first line.
 */
export function AlertBanner({ notices, ackKey, width }: { notices: readonly AlertNotice[]; ackKey: string; width: number }): React.JSX.Element | null {
  const tone = useTone();
  if (notices.length === 0) return null;
  const shown = [...notices].reverse().slice(0, MAX_LINES);
  const more = notices.length - shown.length;
  return (
    <Box flexDirection="column" width={width} height={shown.length} overflow="hidden">
      {shown.map((n, i) => {
        const fired = n.kind === 'fired';
        // the key goes first, so a narrow terminal cuts the rule's text, not how to dismiss it
        const key = i === 0 ? `[${ackKey} acknowledge${more > 0 ? `, ${more} more` : ''}] ` : '';
        return (
          <Box key={n.id} height={1} width={width} overflow="hidden">
            <Box flexShrink={0}>
              <Text color={tone('accent')}>{key}</Text>
            </Box>
            <Text wrap="truncate" inverse={fired} color={fired ? tone('error') : tone('ok')} bold={fired}>
              {`${fired ? '▲' : '✔'} ${terminalSafe(noticeText(n, clock))}`}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
