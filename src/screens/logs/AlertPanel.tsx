import React from 'react';
import { Box, Text } from 'ink';
import { TextField } from '../../components/TextField';
import { useTone } from '../../components/theme';
import { PRIORITY } from '../../keys/input-router';
import { contextChain } from '../../keys/keymap';
import { useInputLayer } from '../../keys/input-hooks';
import { editText } from '../../keys/text-edit';
import { formatDuration } from '../../log-records/alert-rule';
import type { AlertPanel as Panel, AlertRuleView, AlertsStore } from '../../state/logs/alerts';
import { useSelect } from '../../state/store-hooks';
import { terminalSafe } from '../../text/terminal-safe';
import { formatTime } from '../../text/time-format';

const clock = (ms: number) => formatTime(ms, 'clock');

/** The keys of the rules panel while it is open: typing edits the new rule, enter adds, ↑/↓ choose, ctrl-x removes, esc closes. */
export function useAlertPanelKeys(alerts: AlertsStore, layerKey: string): void {
  const a = () => alerts.getState();
  useInputLayer(
    {
      id: `logs:alerts:${layerKey}`,
      priority: PRIORITY.field,
      active: () => a().panel !== null,
      chain: () => contextChain('prompt'),
      text: (ev) => {
        const p = a().panel;
        if (!p) return false;
        if (ev.name === 'up') a().select(-1);
        else if (ev.name === 'down') a().select(1);
        else if (ev.name === 'ctrl-x') a().removeSelected();
        else {
          const next = editText(p.text, ev);
          if (next) a().setText(next);
          return next !== null;
        }
        return true;
      },
    },
    { 'prompt.apply': () => void a().submit(), 'prompt.cancel': () => a().closePanel() },
  );
}

function ruleState(r: AlertRuleView): { text: string; tone: 'error' | 'ok' | 'muted' } {
  if (r.firing) return { text: `FIRING since ${r.firedAt === null ? '?' : clock(r.firedAt)} · now ${r.observed ?? '?'}`, tone: 'error' };
  const last = r.lastCleared ? ` · last fired for ${formatDuration(r.lastCleared.durationMs)}, cleared ${clock(r.lastCleared.at)}` : '';
  return { text: `ok · ${r.observed ?? 'waiting for the follow to settle'}${last}`, tone: r.observed === null ? 'muted' : 'ok' };
}

/** The alert rules on the screen's records: the list with each rule's state, and a field for a new one. */
export function AlertPanel({ alerts, width, height }: { alerts: AlertsStore; width: number; height: number }): React.JSX.Element | null {
  const tone = useTone();
  const panel: Panel | null = useSelect(alerts, (x) => x.panel);
  const rules = useSelect(alerts, (x) => x.rules);
  if (!panel) return null;
  const label = 'new rule: ';
  const fieldWidth = Math.max(10, Math.min(70, width - label.length - 1));
  // title, rules, field, error (3 lines with the pointer), 2 help lines
  const listRoom = Math.max(1, height - 8);
  const first = Math.max(0, Math.min(panel.selected - listRoom + 1, rules.length - listRoom));
  const ruleWidth = Math.min(44, Math.max(20, Math.floor(width / 2)));
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text bold wrap="truncate">
        Alert rules{' '}
        <Text color={tone('muted')}>(on the records of this screen, while it follows; a banner, the bell and a desktop notification when one fires)</Text>
      </Text>
      {rules.length === 0 ? <Text color={tone('muted')}>{'  no rules yet'}</Text> : null}
      {rules.slice(first, first + listRoom).map((r, k) => {
        const i = first + k;
        const chosen = i === panel.selected;
        const st = ruleState(r);
        return (
          <Box key={`${i}:${r.text}`} height={1} width={width} overflow="hidden">
            <Box width={ruleWidth + 2} flexShrink={0}>
              <Text wrap="truncate" color={chosen ? tone('accent') : undefined} bold={chosen}>
                {`${chosen ? '›' : ' '} ${terminalSafe(r.text)}`}
              </Text>
            </Box>
            <Text wrap="truncate" color={tone(st.tone)}>
              {st.text}
            </Text>
          </Box>
        );
      })}
      <Box height={1} width={width} overflow="hidden">
        <Box flexShrink={0}>
          <Text color={tone('accent')}>{label}</Text>
        </Box>
        <Box flexShrink={0} width={fieldWidth}>
          <TextField state={panel.text} width={fieldWidth} />
        </Box>
      </Box>
      {panel.error ? (
        <Text color={tone('error')} wrap="truncate">
          {`✖ ${terminalSafe(panel.error)}`}
        </Text>
      ) : null}
      {panel.errorAt && panel.errorAt.start + label.length < width ? (
        <Text color={tone('error')} wrap="truncate">
          {`${' '.repeat(label.length + Math.max(0, panel.errorAt.start - Math.max(0, panel.text.value.length - fieldWidth + 1)))}${'^'.repeat(Math.max(1, panel.errorAt.end - panel.errorAt.start))}`}
        </Text>
      ) : null}
      <Text color={tone('muted')} wrap="truncate">
        enter adds · ↑/↓ choose · ctrl-x removes the chosen rule · esc closes
      </Text>
      <Text color={tone('muted')} wrap="truncate">
        {'status=5xx rate>2/s over 60s · cache=MISS and country=DE count>500 over 5m · path~^/api rate>=10/s over 30s'}
      </Text>
    </Box>
  );
}
