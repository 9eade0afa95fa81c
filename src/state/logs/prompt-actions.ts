import path from 'node:path';
import { v1Date } from '../../api/logs/index';
import { textOf } from '../../keys/text-edit';
import { defaultExportPath, formatOfPath, withFormat, type ExportFormat, type ExportResult } from '../../log-records/export';
import { runExport } from './export-run';
import type { LogMarks } from './marks';
import { infoStatus, type LogsSliceContext } from './slice-context';
import { checkV1Date, DAY_MS, type LogsState, type Prompt } from './types';

type PromptActions = Pick<LogsState, 'openExport' | 'openV1' | 'setPromptText' | 'toggleExportFormat' | 'submitPrompt' | 'cancelPrompt'>;

export interface PromptContext extends Pick<LogsSliceContext, 'model' | 'ui' | 'now' | 'get' | 'set'> {
  marks: LogMarks;
  /** Relative export paths are written here. */
  cwd: string;
  showSecrets: boolean;
  /** Enter in the `@` prompt. */
  submitTimeJump(p: Extract<Prompt, { kind: 'time' }>): void;
  /** Reads a v1 day file (MM-dd-yy) into the store. */
  loadV1(date: string): Promise<void>;
}

/** The logs store's one-line prompts: the export file (`e`), the v1 day (`V`) and, through the marks, the `@` time. */
export function logsPromptActions(ctx: PromptContext): PromptActions {
  const { model, marks, ui, now, get, set, cwd } = ctx;
  let exportMarked = false;
  const exportContext = {
    ui,
    cwd,
    showSecrets: ctx.showSecrets,
    done: (r: ExportResult) => set({ lastExport: r }),
    askAgain: (file: string, format: ExportFormat, records: number) =>
      set({
        prompt: {
          kind: 'export',
          text: textOf(file),
          format,
          error: 'that file exists: change the name, or enter again to be asked to replace it',
          records,
          markedOnly: exportMarked,
          marked: marks.size,
        },
      }),
  };

  function submitExport(p: Extract<Prompt, { kind: 'export' }>, value: string): void {
    if (value === '') {
      set({ prompt: { ...p, error: 'type a file name (relative names go in the current directory)' } });
      return;
    }
    const file = path.resolve(cwd, value.startsWith('~/') ? path.join(process.env.HOME ?? '~', value.slice(2)) : value);
    const format = /\.(csv|ndjson|jsonl|json)$/i.test(file) ? formatOfPath(file) : p.format;
    exportMarked = p.markedOnly === true;
    const records = exportMarked ? marks.exportRecords() : model.exportRecords();
    set({ prompt: null });
    void runExport(exportContext, file, format, false, records);
  }

  return {
    openExport() {
      const s = get();
      if (s.zoneId === null) return;
      model.finishScan();
      const records = model.filtering ? model.matches : model.buffer.length;
      const label = s.source === 'v1' && s.v1 ? `${s.zoneId}-v1-${s.v1.date}` : s.zones.join('+');
      set({
        prompt: {
          kind: 'export',
          text: textOf(defaultExportPath(cwd, label, 'ndjson', now())),
          format: 'ndjson',
          error: null,
          records,
          markedOnly: false,
          marked: marks.size,
        },
      });
    },

    openV1() {
      if (get().zoneId === null || get().zoneProblem) return;
      if (get().zones.length > 1) {
        infoStatus(ctx, `a v1 day file is one zone's: open :logs ${get().zoneId} for it`, 5000);
        return;
      }
      const yesterday = v1Date(now() - DAY_MS);
      set({ prompt: { kind: 'v1', text: textOf(get().v1?.date ?? yesterday), error: null } });
    },

    setPromptText(text) {
      const p = get().prompt;
      if (p) set({ prompt: { ...p, text, error: null } });
    },

    toggleExportFormat() {
      const p = get().prompt;
      if (p?.kind !== 'export') return;
      const format: ExportFormat = p.format === 'ndjson' ? 'csv' : 'ndjson';
      set({ prompt: { ...p, format, text: textOf(withFormat(p.text.value, format)) } });
    },

    submitPrompt() {
      const p = get().prompt;
      if (!p) return;
      const value = p.text.value.trim();
      if (p.kind === 'time') {
        ctx.submitTimeJump(p);
        return;
      }
      if (p.kind === 'export') {
        submitExport(p, value);
        return;
      }
      const checked = checkV1Date(value, now());
      if ('error' in checked) {
        set({ prompt: { ...p, error: checked.error } });
        return;
      }
      set({ prompt: null });
      void ctx.loadV1(value);
    },

    cancelPrompt() {
      set({ prompt: null });
    },
  };
}
