import React from 'react';
import { Box, Text } from 'ink';
import type { ContainerLimits } from '../../api/containers';
import { Gauge } from '../../components/Gauge';
import { formatAge } from '../../text/fit';
import { useTone } from '../../components/theme';
import { limitRows } from '../../renderers/container-limits';

export interface LimitsPanelProps {
  limits: ContainerLimits | null;
  limitsAt: number | null;
  error: string | null;
  loading: boolean;
  paused: boolean;
  now: number;
  width: number;
}

export const LIMITS_PANEL_HEIGHT = 8;

/** Account limits: applications as a bar (used of max), every other limit with its maximum. */
export function LimitsPanel({ limits, limitsAt, error, loading, paused, now, width }: LimitsPanelProps): React.JSX.Element {
  const tone = useTone();
  const age = limitsAt !== null ? `refreshed ${formatAge(now - limitsAt)}` : loading ? 'loading…' : '';
  const state = [paused ? 'paused' : '', age].filter(Boolean).join(' · ');
  const rows = limits ? limitRows(limits) : [];
  return (
    <Box flexDirection="column" width={width} height={LIMITS_PANEL_HEIGHT} overflow="hidden">
      <Box>
        <Text bold>Container limits and usage</Text>
        <Box flexGrow={1} justifyContent="flex-end">
          <Text color={tone('muted')}>{state}</Text>
        </Box>
      </Box>
      {rows.map((r) => (
        <Gauge key={r.key} label={r.label} labelWidth={26} width={width} used={r.used} max={r.max} unit={r.unit} />
      ))}
      {!limits && !error ? <Text color={tone('muted')}>loading limits…</Text> : null}
      {error ? (
        <Text color={tone('error')} wrap="truncate">
          {limits ? `refresh failed, showing the last data: ${error}` : `could not load the limits: ${error}`}
        </Text>
      ) : null}
    </Box>
  );
}
