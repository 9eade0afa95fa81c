import React from 'react';
import { Box, Text } from 'ink';
import { TextField } from '../../components/TextField';
import { fit } from '../../text/fit';
import { useTone } from '../../components/theme';
import type { SpecPanel as SpecPanelState } from '../../state/shield-store';
import { terminalSafe } from '../../text/terminal-safe';
import { limitCheckCells, specVerdict } from './guardian-view';

export interface SpecPanelProps {
  spec: SpecPanelState;
  /** The zone has a spec already (an upload replaces it). */
  replace: boolean;
  readOnly: boolean;
  width: number;
  height: number;
}

const COLS = { label: 18, measured: 10, allowed: 8, status: 6 };

/** Lines the panel needs at most: path, file, header, five limits, verdict. */
export const SPEC_PANEL_LINES = 9;

/** The spec file field, then the local check: measured vs allowed for every plan limit. */
export function SpecPanel({ spec, replace, readOnly, width, height }: SpecPanelProps): React.JSX.Element {
  const tone = useTone();
  const label = 'Spec file ';
  const check = spec.check;
  const row = (a: string, b: string, c: string, d: string, e: string) =>
    `${fit(a, COLS.label)} ${fit(b, COLS.measured, 'right')} ${fit(c, COLS.allowed, 'right')}  ${fit(d, COLS.status)} ${terminalSafe(e)}`;
  const verdict = check ? specVerdict(check, replace) : null;
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Box height={1}>
        <Text bold>{label}</Text>
        {spec.editing ? (
          <TextField state={spec.input} width={Math.max(10, width - label.length - 1)} placeholder="path of an OpenAPI 3 file (JSON or YAML)" />
        ) : (
          <Text wrap="truncate">{terminalSafe(spec.input.value)}</Text>
        )}
      </Box>
      {spec.editing && !check && !spec.error ? (
        <Text color={tone('muted')} wrap="truncate">
          enter checks the file against this zone&apos;s plan limits; esc cancels
        </Text>
      ) : null}
      {spec.checking ? <Text color={tone('muted')}>checking…</Text> : null}
      {spec.error ? (
        <Box height={3} overflow="hidden">
          <Text color={tone('error')} wrap="wrap">
            {`✖ ${terminalSafe(spec.error)}`}
          </Text>
        </Box>
      ) : null}
      {check && spec.file ? (
        <>
          <Text wrap="truncate">
            <Text bold>{terminalSafe(`${check.title} ${check.version}`)}</Text>
            <Text color={tone('muted')}>{` · ${check.format === 'json' ? 'JSON' : 'YAML'} · ${spec.file.bytes} bytes · ${terminalSafe(spec.file.path)}`}</Text>
          </Text>
          <Text bold wrap="truncate">
            {row('LIMIT', 'MEASURED', 'ALLOWED', 'STATUS', 'WHERE')}
          </Text>
          {check.checks.map((c) => {
            const cells = limitCheckCells(c);
            return (
              <Text key={c.limit} color={tone(cells.tone)} wrap="truncate">
                {row(cells.label, cells.measured, cells.allowed, cells.status, cells.where)}
              </Text>
            );
          })}
          {verdict ? (
            <Text color={tone(verdict.tone)} wrap="truncate">
              {readOnly
                ? `${verdict.tone === 'ok' ? 'within the plan limits' : verdict.text.split(':')[0]} (read-only: uploading is off)`
                : terminalSafe(verdict.text)}
            </Text>
          ) : null}
        </>
      ) : null}
    </Box>
  );
}
