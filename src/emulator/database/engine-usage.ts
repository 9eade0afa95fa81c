import type { StmtResult } from './engine';
import type { EngineUsage } from './engine-protocol';
import type { StreamResult } from './engine-run';

/*
 * What a request cost, for the usage and statistics routes: statements run, rows read (each
 * statement's rows_read, as near to sqld's count as the engine shows it: Connection.rowsRead in
 * engine.ts), rows changed.
 */

export const noUsage = (): EngineUsage => ({ queries: 0, rowsRead: 0, rowsWritten: 0 });

export function addStatement(usage: EngineUsage, rowsRead: number, rowsChanged: number): void {
  usage.queries++;
  usage.rowsRead += rowsRead;
  usage.rowsWritten += rowsChanged;
}

export function usageOf(result: StreamResult): EngineUsage {
  const usage = noUsage();
  if (result.type !== 'ok') return usage;
  const r = result.response.result as StmtResult | { step_results?: (StmtResult | null)[] } | undefined;
  const stmts = r === undefined ? [] : 'step_results' in r ? (r.step_results ?? []) : [r as StmtResult];
  for (const s of stmts) if (s && Array.isArray(s.rows)) addStatement(usage, s.rows_read, s.affected_row_count);
  return usage;
}
