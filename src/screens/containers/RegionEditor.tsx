import React, { useMemo } from 'react';
import { Box, Text } from 'ink';
import { Table } from '../../components/Table';
import { TextField } from '../../components/TextField';
import { formatAge } from '../../text/fit';
import { useTone } from '../../components/theme';
import { useActions, useTextInput } from '../../keys/input-hooks';
import { emptyText } from '../../keys/text-edit';
import { capacityWarnings, isDirty, validateDraft } from '../../state/containers-region-draft';
import { guardLeave } from '../../state/unsent-guard';
import type { ContainersStore } from '../../state/containers-store';
import { useSelect, useUiStore, useUi } from '../../state/store-hooks';
import { idList, maxText, messagesFor, regionColumns, regionRows, selectorColumns } from './region-editor-view';
import { detailColumns, detailLines, instancesByRegion, instancesSummary, templateSummary, volumesSummary } from './workload-view';
import { terminalSafe } from '../../text/terminal-safe';
import { selectedRowOf } from '../../state/table-selection';
import { tableViewKey } from '../../text/table-model';
import { useScreenInstance } from '../screen-def';
import { serverRecord } from '../server-record';

export interface RegionEditorProps {
  store: ContainersStore;
  width: number;
  height: number;
  now: number;
}

const REGIONS_TABLE = 'regions';
const SELECTORS_TABLE = 'selectors';
const DETAILS_TABLE = 'details';
/** Template lines shown above the checklist; the rest are in the details list (`i`). */
const TEMPLATE_LINES = 2;

/**
 * One application's region settings: allowed and required regions ticked in the live region
 * list, max allowed regions, node selectors as key/value rows. Problems are shown next to the
 * field they belong to, before anything is sent; `c` goes through the one confirm path.
 */
export function RegionEditor({ store, width, height, now }: RegionEditorProps): React.JSX.Element {
  const tone = useTone();
  const instance = useScreenInstance();
  const ui = useUiStore();
  const readOnly = useUi((s) => s.readOnly);
  const editor = useSelect(store, (s) => s.editor);
  const regions = useSelect(store, (s) => s.regions);
  const regionsError = useSelect(store, (s) => s.regionsError);
  const limits = useSelect(store, (s) => s.limits);
  const draft = editor?.draft ?? null;
  const workload = editor?.workload ?? null;
  const running = useMemo(() => instancesByRegion(workload?.overview ?? null), [workload?.overview]);
  const rows = useMemo(() => regionRows(regions, draft, running), [regions, draft, running]);
  const details = useMemo(
    () => (editor?.showDetails && workload ? detailLines(workload.detail, workload.overview, workload.volumes) : []),
    [editor?.showDetails, workload],
  );
  const problems = useMemo(() => (draft ? validateDraft(draft, limits, regions) : {}), [draft, limits, regions]);

  const s = () => store.getState();
  const selectedRegion = () => {
    const st = s();
    const inRegions = instancesByRegion(st.editor?.workload.overview ?? null);
    return (
      selectedRowOf(ui.getState(), tableViewKey(instance.key, REGIONS_TABLE), regionRows(st.regions, st.editor?.draft ?? null, inRegions), regionColumns)
        ?.row ?? null
    );
  };
  const selectedSelector = () => selectedRowOf(ui.getState(), tableViewKey(instance.key, SELECTORS_TABLE), s().editor?.draft?.selectors ?? [], selectorColumns);
  const focusIs = (f: 'regions' | 'selectors') => s().editor?.focus === f && !s().editor?.showDetails;

  useActions({
    'containers.save': () => s().save(),
    'containers.toggleAllowed': () => {
      if (!focusIs('regions')) return false;
      const r = selectedRegion();
      if (r) s().toggleAllowed(r.id);
      return true;
    },
    'containers.toggleRequired': () => {
      if (!focusIs('regions')) return false;
      const r = selectedRegion();
      if (r) s().toggleRequired(r.id);
      return true;
    },
    'containers.maxUp': () => s().bumpMax(1),
    'containers.maxDown': () => s().bumpMax(-1),
    'containers.focus': () => s().setFocus(focusIs('regions') ? 'selectors' : 'regions'),
    'containers.addSelector': () => s().startSelectorEdit(null),
    'containers.editSelector': {
      disabledReason: () => (focusIs('selectors') && selectedSelector() ? null : 'tab to the node selectors and pick a row to edit'),
      run: () => s().startSelectorEdit(selectedSelector()!.index),
    },
    'containers.deleteSelector': {
      disabledReason: () => (focusIs('selectors') && selectedSelector() ? null : 'tab to the node selectors and pick a row to delete'),
      run: () => s().deleteSelector(selectedSelector()!.index),
    },
    'containers.undo': () => s().resetDraft(),
    'containers.details': () => s().toggleDetails(),
    'app.back': () => {
      const e = s().editor;
      if (!e) return false;
      if (e.showDetails) {
        s().toggleDetails();
        return true;
      }
      guardLeave(ui, 'containers', () => s().closeEditor());
      return true;
    },
  });

  useTextInput({
    id: 'containers:selector',
    active: () => s().editor?.selectorEdit != null,
    get: () => {
      const edit = s().editor?.selectorEdit;
      return edit ? edit[edit.field] : emptyText;
    },
    set: (text) => s().setSelectorText(text),
    handlers: {
      'prompt.apply': () => s().selectorEnter(),
      'prompt.cancel': () => s().cancelSelectorEdit(),
    },
  });

  if (!editor) return <Text> </Text>;
  const app = editor.app;
  const title = terminalSafe(`Region settings · ${app.name ?? app.id} (${app.id})`);
  if (!editor.settings || !draft) {
    return (
      <Box flexDirection="column" width={width} height={height} overflow="hidden">
        <Text bold wrap="truncate">
          {title}
        </Text>
        {editor.settingsError ? (
          <Text color={tone('error')} wrap="truncate">{`✖ could not load the region settings: ${editor.settingsError} (r retries, esc goes back)`}</Text>
        ) : (
          <Text color={tone('muted')}>loading the region settings…</Text>
        )}
      </Box>
    );
  }

  const dirty = isDirty(draft, editor.settings);
  const server = editor.serverErrors;
  const noCapacity = capacityWarnings(draft, regions);
  const lines: React.ReactNode[] = [];
  const label = (text: string) => <Text bold>{text.padEnd(10)}</Text>;
  const messageLines = (key: string, messages: string[]) =>
    messages.map((m, i) => <Text key={`${key}${i}`} color={tone('error')} wrap="truncate">{`${' '.repeat(10)}✖ ${m}`}</Text>);

  const state = [
    readOnly ? 'read-only' : '',
    dirty ? 'modified' : 'unchanged',
    editor.settings.provisioningType ? `provisioning ${editor.settings.provisioningType}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  lines.push(
    <Text key="title" wrap="truncate">
      <Text bold>{title}</Text>
      <Text color={tone(dirty ? 'warn' : 'muted')}>{`  ${state}`}</Text>
    </Text>,
  );
  const w = editor.workload;
  const templates = w.detail?.containerTemplates ?? [];
  const muted = (text: string) => <Text color={tone('muted')}>{terminalSafe(text)}</Text>;
  if (!w.detail) {
    lines.push(
      <Text key="tpl" wrap="truncate">
        {label('runs')}
        {muted(w.error ? '' : 'loading…')}
      </Text>,
    );
  }
  templates.slice(0, TEMPLATE_LINES).forEach((t, i) => {
    const more = i === TEMPLATE_LINES - 1 && templates.length > TEMPLATE_LINES ? ` (+${templates.length - TEMPLATE_LINES} more: i)` : '';
    lines.push(
      <Text key={`tpl${i}`} wrap="truncate">
        {label(i === 0 ? 'runs' : '')}
        {terminalSafe(templateSummary(t))}
        {more}
      </Text>,
    );
  });
  lines.push(
    <Text key="inst" wrap="truncate">
      {label('instances')}
      {terminalSafe(instancesSummary(w.overview, w.detail?.status ?? app.status))}
    </Text>,
  );
  lines.push(
    <Text key="vol" wrap="truncate">
      {label('volumes')}
      {terminalSafe(volumesSummary(w.volumes))}
    </Text>,
  );
  if (w.error) lines.push(<Text key="werr" color={tone('error')} wrap="truncate">{`${' '.repeat(10)}✖ ${terminalSafe(w.error)}`}</Text>);
  lines.push(
    <Text key="allowed" wrap="truncate">
      {label('allowed')}
      {idList(draft.allowed)}
    </Text>,
  );
  lines.push(...messageLines('allowed', messagesFor('allowed', problems, server)));
  lines.push(
    <Text key="required" wrap="truncate">
      {label('required')}
      {idList(draft.required)}
    </Text>,
  );
  lines.push(...messageLines('required', messagesFor('required', problems, server)));
  if (noCapacity.length) {
    lines.push(
      <Text
        key="capacity"
        color={tone('warn')}
        wrap="truncate"
      >{`${' '.repeat(10)}⚠ no capacity now: ${noCapacity.join(', ')} (the platform may refuse a required region without capacity)`}</Text>,
    );
  }
  lines.push(
    <Text key="max" wrap="truncate">
      {label('max')}
      {maxText(draft.maxAllowedRegions, limits)}
      <Text color={tone('muted')}>{readOnly ? '' : '  (+/- change)'}</Text>
    </Text>,
  );
  lines.push(...messageLines('max', messagesFor('max', problems, server)));
  const outcome = editor.outcome;
  if (outcome?.kind === 'saved') {
    lines.push(
      <Text
        key="outcome"
        color={tone('ok')}
        wrap="truncate"
      >{`✔ saved ${formatAge(now - outcome.at)}; the platform answered 200 (no body); showing the settings read back`}</Text>,
    );
  } else if (outcome?.kind === 'unknown') {
    lines.push(<Text key="outcome" color={tone('warn')} wrap="truncate">{`⚠ outcome unknown (not retried): ${outcome.message}`}</Text>);
  }
  lines.push(...messageLines('general', messagesFor('general', {}, server)));
  if (regionsError) lines.push(<Text key="regerr" color={tone('error')} wrap="truncate">{`✖ region list: ${regionsError}`}</Text>);

  const selectorMessages = messagesFor('selectors', problems, server);
  const edit = editor.selectorEdit;
  const selectorNote =
    draft.knownSelectors === null && !draft.selectorsTouched
      ? 'not returned by the API; rows you add replace the whole set when saved'
      : draft.selectorsTouched
        ? 'changed: the whole set is sent'
        : 'as burrow last sent them';
  const selectorRows = draft.selectors.length;
  const selectorsHeight = Math.min(6, Math.max(3, selectorRows + 2));
  const fixedBelow = 1 + selectorMessages.length + (edit ? 1 : 0) + selectorsHeight;
  const regionsHeight = Math.max(3, height - lines.length - fixedBelow);
  const focus = editor.focus;

  if (editor.showDetails) {
    return (
      <Box flexDirection="column" width={width} height={height} overflow="hidden">
        {lines[0]}
        <Table
          id={DETAILS_TABLE}
          rows={details}
          columns={detailColumns}
          width={width}
          height={Math.max(3, height - 1)}
          emptyText="loading…"
          record={() => (w.detail ? serverRecord(`application ${app.id} ${app.name ?? ''}`, w.detail) : null)}
        />
      </Box>
    );
  }

  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {lines}
      <Table
        id={REGIONS_TABLE}
        rows={rows}
        columns={regionColumns}
        width={width}
        height={regionsHeight}
        focused={focus === 'regions' && !edit}
        emptyText={regions ? 'the region list is empty' : 'loading the region list…'}
        record={(r) => {
          const region = s().regions?.find((x) => x.id === r.id);
          return region ? serverRecord(`region ${region.id} ${region.name ?? ''}`, region) : null;
        }}
      />
      <Text wrap="truncate">
        <Text bold color={tone(focus === 'selectors' ? 'accent' : undefined)}>
          {'node selectors'}
        </Text>
        <Text color={tone('muted')}>{`  ${selectorNote}`}</Text>
      </Text>
      {selectorMessages.map((m, i) => (
        <Text key={`sel${i}`} color={tone('error')} wrap="truncate">{`✖ ${m}`}</Text>
      ))}
      {edit ? (
        <Box height={1}>
          <Text color={tone('accent')}>{edit.index === null ? 'new  ' : 'edit '}</Text>
          <Text bold={edit.field === 'key'}>{'key '}</Text>
          <TextField state={edit.key} width={Math.floor(width / 3)} focused={edit.field === 'key'} placeholder="e.g. tier" />
          <Text bold={edit.field === 'value'}>{'  value '}</Text>
          <TextField state={edit.value} width={Math.floor(width / 3)} focused={edit.field === 'value'} placeholder="e.g. gpu" />
        </Box>
      ) : null}
      <Table
        id={SELECTORS_TABLE}
        rows={draft.selectors}
        columns={selectorColumns}
        width={width}
        height={selectorsHeight}
        focused={focus === 'selectors' && !edit}
        filterable={false}
        emptyText={readOnly ? 'none shown' : 'none: n adds one'}
      />
    </Box>
  );
}
