import React from 'react';
import { Box, Text } from 'ink';
import type { ContainerLimits } from '../../api/containers';
import { Gauge } from '../../components/Gauge';
import { ListTitle, loadErrorText } from '../../components/ListTitle';
import { terminalSafe } from '../../text/terminal-safe';
import { useTone } from '../../components/theme';
import { limitRows } from '../../renderers/container-limits';

export interface LimitsPanelProps {
  limits: ContainerLimits | null;
  limitsAt: number | null;
  error: string | null;
  paused: boolean;
  now: number;
  width: number;
}

export const LIMITS_PANEL_HEIGHT = 8;

/** Account limits: applications as a bar (used of max), every other limit with its maximum. */
export function LimitsPanel({ limits, limitsAt, error, paused, now, width }: LimitsPanelProps): React.JSX.Element {
  const tone = useTone();
  const rows = limits ? limitRows(limits) : [];
  return (
    <Box flexDirection="column" width={width} height={LIMITS_PANEL_HEIGHT} overflow="hidden">
      <ListTitle title="Container limits and usage" loading={false} poll={{ paused, loadedAt: limitsAt, now }} />
      {rows.map((r) => (
        <Gauge key={r.key} label={r.label} labelWidth={26} width={width} used={r.used} max={r.max} unit={r.unit} />
      ))}
      {!limits && !error ? <Text color={tone('muted')}>loading limits…</Text> : null}
      {error ? (
        <Text color={tone('error')} wrap="truncate">
          {terminalSafe(loadErrorText(error, limits !== null, 'the limits') ?? '')}
        </Text>
      ) : null}
    </Box>
  );
}
