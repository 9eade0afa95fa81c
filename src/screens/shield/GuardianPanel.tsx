import React, { useEffect } from 'react';
import { Box, Text } from 'ink';
import { Table } from '../../components/Table';
import { ListTitle, loadErrorText } from '../../components/ListTitle';
import { fit, formatAge } from '../../text/fit';
import { useTone } from '../../components/theme';
import { useNow } from '../../components/use-now';
import { displayKey } from '../../keys/key-event';
import { keysOf } from '../../keys/keymap';
import { useActions, useInputRouter, useTextInput } from '../../keys/input-hooks';
import { emptyText } from '../../keys/text-edit';
import { useSelect, useUiStore, useUi } from '../../state/store-hooks';
import { type ShieldStore, hasSpec } from '../../state/shield-store';
import { endpointColumns, limitsText, settingRows, specSummary } from './guardian-view';
import { SPEC_PANEL_LINES, SpecPanel } from './SpecPanel';
import { enumName } from '../../renderers/format';
import { terminalSafe } from '../../text/terminal-safe';
import { SHIELD_PLAN_TYPE } from '../../api/shield';
import { useScreenInstance } from '../screen-def';
import { guardLeave } from '../../state/unsent-guard';
import { formatDateText } from '../../text/time-format';
import { serverRecord } from '../server-record';

export interface GuardianPanelProps {
  store: ShieldStore;
  zoneId: number;
  width: number;
  height: number;
}

const LABEL = 17;
/** Cells for a setting's value and its "(edited; server: …)" note, so the keys line up. */
const VALUE = 34;

/** One zone's API Guardian: settings (editable), spec, plan limits, then endpoints or the spec check. */
export function GuardianPanel({ store, zoneId, width, height }: GuardianPanelProps): React.JSX.Element {
  const guardian = useSelect(store, (s) => s.guardian);
  const error = useSelect(store, (s) => s.guardianError);
  const draft = useSelect(store, (s) => s.draft);
  const lastResult = useSelect(store, (s) => s.lastResult);
  const spec = useSelect(store, (s) => s.spec);
  const at = useSelect(store, (s) => s.guardianAt);
  const paused = useSelect(store, (s) => s.paused);
  const zone = useSelect(store, (s) => s.zones.find((z) => z.shieldZoneId === zoneId) ?? null);
  const readOnly = useUi((s) => s.readOnly);
  const uiStore = useUiStore();
  const instance = useScreenInstance();
  const router = useInputRouter();
  const now = useNow(1000);
  const tone = useTone();

  useEffect(() => store.getState().watchGuardian(), [store, zoneId]);

  const st = () => store.getState();
  const ui = () => uiStore.getState();
  /** Why the settings cannot be edited yet, or null once they are loaded. */
  const notLoaded = (): string | null => {
    if (st().guardian) return null;
    const e = st().guardianError;
    const z = st().zones.find((x) => x.shieldZoneId === zoneId);
    if (!e) return 'the API Guardian settings are still loading';
    return e.status === 403 && z
      ? `zone ${zoneId} is on the ${enumName(SHIELD_PLAN_TYPE, z.planType)} plan: API Guardian needs Advanced or higher`
      : "this zone's API Guardian could not be read: nothing to edit";
  };
  const whenLoaded = (run: () => void) => ({ disabledReason: notLoaded, run });
  const endpointsView = `${instance.key}:endpoints`;
  useActions({
    'screen.refresh': () => void st().refresh(),
    'screen.pause': () => st().togglePause(),
    'app.back': () => {
      if (st().spec) {
        st().closeSpec();
        return true;
      }
      // a kept endpoints filter is cleared first (by the table)
      if ((ui().filters[endpointsView]?.text.value ?? '') !== '') return false;
      guardLeave(uiStore, 'shield', () => st().closeZone());
      return true;
    },
    'shield.toggleEnabled': whenLoaded(() => void st().toggleEnabled()),
    'shield.cycleMode': whenLoaded(() => void st().cycle('executionMode')),
    'shield.cycleBodyLimit': whenLoaded(() => void st().cycle('bodyLimitAction')),
    'shield.cycleUnmatched': whenLoaded(() => void st().cycle('unmatchedPathAction')),
    'shield.send': whenLoaded(() => void (st().spec?.check ? st().reviewSpec(false) : st().reviewChanges())),
    'shield.forceSpec': () => void st().reviewSpec(true),
    'shield.discard': {
      disabledReason: () => (Object.keys(st().draft).length === 0 ? 'no edits to discard' : null),
      run: () => void st().discardDraft(),
    },
    'shield.spec': whenLoaded(() => (st().spec ? st().editSpecPath() : st().openSpec())),
  });
  useTextInput({
    id: 'shield:spec-path',
    active: () => st().spec?.editing === true,
    get: () => st().spec?.input ?? emptyText,
    set: (t) => st().setSpecInput(t),
    handlers: {
      'prompt.apply': () => void st().checkSpec(),
      'prompt.cancel': () => st().cancelSpecEdit(),
    },
  });

  const keyOf = (action: string) => {
    const k = keysOf(router.keymap, action)[0];
    return k ? displayKey(k) : '';
  };
  const plan = zone ? enumName(SHIELD_PLAN_TYPE, zone.planType) : '';
  const title = `API Guardian · zone ${zoneId}${zone ? ` (pull zone ${zone.pullZoneId ?? '-'}, ${plan})` : ''}`;
  const header = <ListTitle title={title} loading={false} poll={{ paused, loadedAt: at, now }} />;

  if (!guardian) {
    return (
      <Box flexDirection="column" width={width} height={height} overflow="hidden">
        {header}
        {error ? (
          <>
            <Box height={3} overflow="hidden">
              <Text color={tone('error')} wrap="wrap">{`✖ ${terminalSafe(error.message)}`}</Text>
            </Box>
            {error.code ? <Text wrap="truncate">{`errorKey: ${terminalSafe(error.code)}`}</Text> : null}
            <Text color={tone('muted')} wrap="truncate">
              {error.status === 403 ? 'API Guardian needs the Advanced plan or higher. esc: back to the zones' : 'esc: back to the zones · r: try again'}
            </Text>
          </>
        ) : (
          <Text color={tone('muted')}>loading API Guardian…</Text>
        )}
      </Box>
    );
  }

  const c = guardian.configuration;
  const rows = settingRows(c, draft);
  const edits = rows.filter((r) => r.serverValue !== null).length;
  const line = (label: string, value: React.ReactNode, key = '') => (
    <Box height={1}>
      <Text wrap="truncate">
        <Text color={tone('muted')}>{fit(label, LABEL)}</Text>
        {value}
        {key && !readOnly ? <Text color={tone('accent')}>{`  ${key}`}</Text> : null}
      </Text>
    </Box>
  );
  let notice: { text: string; tone: 'ok' | 'warn' | 'error' | 'muted' } | null = null;
  if (edits > 0)
    notice = {
      text: `${edits} edit${edits === 1 ? '' : 's'} not sent yet: ${keyOf('shield.send')} review and send · ${keyOf('shield.discard')} discard`,
      tone: 'warn',
    };
  else if (lastResult)
    notice = {
      text: `${lastResult.text}${lastResult.code && !lastResult.text.includes(lastResult.code) ? ` (errorKey ${lastResult.code})` : ''} · ${formatAge(now - lastResult.at)}`,
      tone: lastResult.tone,
    };
  else if (readOnly) notice = { text: 'read-only: settings and spec cannot be changed here', tone: 'muted' };
  const top = 1 + rows.length + 3 + (notice ? 1 : 0) + (error ? 1 : 0) + 1;
  const rest = Math.max(0, height - top);

  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {header}
      {rows.map((r) => {
        const edited = r.serverValue !== null ? ` (edited; server: ${r.serverValue})` : '';
        return (
          <React.Fragment key={r.field}>
            {line(
              r.label,
              <>
                <Text color={tone(r.tone)} bold={r.serverValue !== null}>
                  {r.value}
                </Text>
                <Text color={tone('warn')}>{fit(edited, Math.max(0, VALUE - r.value.length))}</Text>
              </>,
              keyOf(r.action),
            )}
          </React.Fragment>
        );
      })}
      {line('Specification', specSummary(guardian), keyOf('shield.spec'))}
      {line('Plan limits', limitsText(c))}
      {line('Updated', terminalSafe(formatDateText(c.updatedAt ?? c.createdAt, 'dateTime')) || '-')}
      {notice ? (
        <Text color={tone(notice.tone)} wrap="truncate">
          {terminalSafe(notice.text)}
        </Text>
      ) : null}
      {error ? (
        <Text color={tone('error')} wrap="truncate">
          {terminalSafe(loadErrorText(error.message, true, 'API Guardian') ?? '')}
        </Text>
      ) : null}
      <Text> </Text>
      {spec ? (
        <SpecPanel spec={spec} replace={hasSpec(guardian)} readOnly={readOnly} width={width} height={Math.min(rest, SPEC_PANEL_LINES)} />
      ) : (
        <Table
          id="endpoints"
          rows={guardian.endpoints}
          columns={endpointColumns}
          width={width}
          height={rest}
          emptyText="no endpoints: no spec uploaded"
          record={(e) => serverRecord('API Guardian endpoint', e)}
        />
      )}
    </Box>
  );
}
