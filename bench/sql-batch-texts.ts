import { createClient, type InStatement } from '@libsql/client';
import { startEmulatorChild } from './lib/emulator-child';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const STATEMENTS = 4_000;

/**
 * A batch of STATEMENTS statements cycling through `texts` distinct SQL texts: half INSERTs, half
 * SELECTs by rowid. Each text differs only by a literal, so each is its own prepared statement
 * and its own allow-list check.
 */
function batch(texts: number): InStatement[] {
  const out: InStatement[] = [];
  for (let i = 0; i < STATEMENTS; i++) {
    const t = i % texts;
    out.push(
      t % 2 === 0
        ? { sql: `INSERT INTO bench_batch (k, v) VALUES (?, 'text ${t}')`, args: [i] }
        : { sql: `SELECT v, ${t} AS tag FROM bench_batch WHERE rowid = ?`, args: [i] },
    );
  }
  return out;
}

export const sqlBatchTextsBench: Bench = {
  id: 'sql-batch-texts',
  async run(): Promise<BenchResult[]> {
    const emu = await startEmulatorChild();
    const client = createClient({ url: emu.info.databaseUrl, authToken: emu.info.databaseToken });
    try {
      await client.execute('CREATE TABLE IF NOT EXISTS bench_batch (k INTEGER, v TEXT)');
      const few = batch(10);
      const many = batch(200);
      const time = async (stmts: InStatement[]) => {
        const started = performance.now();
        const results = await client.batch(stmts, 'write');
        if (results.length !== STATEMENTS) throw new Error(`the batch gave ${results.length} results, expected ${STATEMENTS}`);
        return performance.now() - started;
      };
      const ms = { few: [] as number[], many: [] as number[] };
      for (let i = 0; i < RUNS + 1; i++) {
        // alternate which goes first; the first round warms both up and is not counted
        const order = i % 2 ? (['many', 'few'] as const) : (['few', 'many'] as const);
        for (const which of order) {
          const t = await time(which === 'few' ? few : many);
          if (i > 0) ms[which].push(t);
        }
      }
      const m = summarize(ms.many);
      const f = summarize(ms.few);
      return [
        {
          name: 'SQL: batch of 4,000 over 200 texts',
          method: `One \`@libsql/client\` batch (write mode: BEGIN, the statements, COMMIT; over HTTP a cursor) of ${STATEMENTS} statements, half single-row INSERTs and half SELECTs by rowid, cycling through 200 distinct SQL texts, against \`burrow emulator\` (its own process) on loopback; the reference is the same batch cycling through 10 texts. Alternating which goes first; ${RUNS} runs of each after one warm-up. A text the engine has not seen costs a prepare and the allow-list check of its compiled program: no cliff when the texts outnumber a connection's statement cache.`,
          unit: 'ms',
          burrow: m,
          reference: { name: 'same batch over 10 texts', summary: f },
          budget: '<= 1.5x reference',
          pass: m.median <= 1.5 * f.median,
        },
      ];
    } finally {
      client.close();
      await emu.stop();
    }
  },
};
