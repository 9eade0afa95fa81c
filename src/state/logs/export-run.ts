import path from 'node:path';
import { ExportExistsError, writeExport, type ExportFormat, type ExportResult } from '../../log-records/export';
import { formatBytes } from '../../log-records/rows';
import type { UiStore } from '../ui-store';
import type { ExportSnapshot } from './view-model';
import { errorMessage } from '../domain-stores';
import { replaceQuestion } from '../../config/user-file';

export interface ExportContext {
  ui: UiStore;
  cwd: string;
  showSecrets: boolean;
  done(result: ExportResult): void;
  /** The file exists and the person said no: ask for another name. */
  askAgain(file: string, format: ExportFormat, records: number): void;
}

/** Writes an export, says how it went in the status bar, and asks before replacing a file. */
export async function runExport(ctx: ExportContext, file: string, format: ExportFormat, overwrite: boolean, records: ExportSnapshot): Promise<void> {
  const ui = ctx.ui;
  try {
    const r = await writeExport(file, records.records(), { format, overwrite, showSecrets: ctx.showSecrets });
    ctx.done(r);
    const rel = path.relative(ctx.cwd, file);
    const shown = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
    const missed = records.missed ? ` (${records.missed.toLocaleString('en-US')} evicted from the full buffer before they were written)` : '';
    ui.getState().setStatus(
      `exported ${r.records.toLocaleString('en-US')} record${r.records === 1 ? '' : 's'} (${format.toUpperCase()}, ${formatBytes(r.bytes)}) to ${shown}${missed}`,
      'info',
      20_000,
    );
  } catch (error) {
    if (error instanceof ExportExistsError) {
      // a link is named as one: replacing it replaces the link, never what it points to
      const q = replaceQuestion(file, error.existing);
      ui.getState().ask({
        kind: 'question',
        title: q.title,
        detail: `${q.detail.replace(/\?/, ` with these ${records.count.toLocaleString('en-US')} records?`)} (no keeps ${error.existing.kind === 'link' ? 'the link' : 'the file'} and lets you pick another name)`,
        lines: [],
        yesLabel: 'replace',
        onYes: () => runExport(ctx, file, format, true, records),
        onNo: () => ctx.askAgain(file, format, records.count),
      });
      return;
    }
    ui.getState().setStatus(`export to ${file} failed: ${errorMessage(error)}`, 'error', null);
  }
}
