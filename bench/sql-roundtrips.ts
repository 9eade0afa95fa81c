import { createClient } from '@libsql/client';
import { DatabaseSession } from '../src/api/database/index';
import { startEmulatorChild } from './lib/emulator-child';
import { summarize } from './lib/stats';
import type { BenchResult } from './lib/report';
import type { Bench } from './registry';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ROWS = 10_000;
const INSERTS = 1_000;

/** A 10,000-row table with the kinds of values a result carries: integers, text, reals, NULLs. */
export const SEED_ROWS_SQL = (table: string, rows: number) => `
CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, email TEXT, amount REAL, status TEXT, created_at TEXT, note TEXT);
INSERT INTO ${table} (id, customer, email, amount, status, created_at, note)
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows})
SELECT i, 'customer ' || i, 'user' || i || '@example.com', round(i * 1.37, 2), CASE i % 4 WHEN 0 THEN 'paid' WHEN 1 THEN 'open' WHEN 2 THEN 'refunded' ELSE 'void' END,
  datetime(1786190400 + i * 60, 'unixepoch'), CASE WHEN i % 5 = 0 THEN NULL ELSE 'note number ' || i END FROM n;`;

type Client = {
  select(): Promise<number>;
  inserts(run: number): Promise<void>;
  close(): Promise<void>;
};

export const sqlRoundTripsBench: Bench = {
  id: 'sql-roundtrips',
  async run(): Promise<BenchResult[]> {
    const emu = await startEmulatorChild();
    const url = emu.info.databaseUrl;
    const token = emu.info.databaseToken;
    try {
      const setup = new DatabaseSession({ url, authToken: token });
      const seeded = await setup.run([
        ...SEED_ROWS_SQL('bench_orders', ROWS)
          .split(';')
          .map((s) => s.trim())
          .filter(Boolean),
        'CREATE TABLE IF NOT EXISTS bench_inserts (run INTEGER, i INTEGER, label TEXT, amount REAL)',
      ]);
      if (seeded.failed) throw seeded.failed.error;
      await setup.close();

      const burrow = new DatabaseSession({ url, authToken: token });
      const burrowClient: Client = {
        select: async () => (await burrow.execute('SELECT * FROM bench_orders ORDER BY id')).rows.length,
        inserts: async (run) => {
          await burrow.execute('BEGIN');
          for (let i = 0; i < INSERTS; i++)
            await burrow.execute('INSERT INTO bench_inserts (run, i, label, amount) VALUES (?, ?, ?, ?)', [BigInt(run), BigInt(i), `row ${i}`, i * 0.5]);
          await burrow.execute('COMMIT');
        },
        close: async () => {
          await burrow.close();
        },
      };
      const libsql = createClient({ url, authToken: token });
      const libsqlClient: Client = {
        select: async () => (await libsql.execute('SELECT * FROM bench_orders ORDER BY id')).rows.length,
        inserts: async (run) => {
          const tx = await libsql.transaction('write');
          for (let i = 0; i < INSERTS; i++)
            await tx.execute({ sql: 'INSERT INTO bench_inserts (run, i, label, amount) VALUES (?, ?, ?, ?)', args: [run, i, `row ${i}`, i * 0.5] });
          await tx.commit();
        },
        close: async () => libsql.close(),
      };

      const time = async (fn: () => Promise<unknown>) => {
        const started = performance.now();
        await fn();
        return performance.now() - started;
      };
      const sel = { burrow: [] as number[], ref: [] as number[] };
      const ins = { burrow: [] as number[], ref: [] as number[] };
      let run = 0;
      for (let i = 0; i < RUNS + 1; i++) {
        // alternate which goes first; the first round warms both up and is not counted
        const order: [Client, 'burrow' | 'ref'][] =
          i % 2
            ? [
                [libsqlClient, 'ref'],
                [burrowClient, 'burrow'],
              ]
            : [
                [burrowClient, 'burrow'],
                [libsqlClient, 'ref'],
              ];
        for (const [client, who] of order) {
          let rows = 0;
          const s = await time(async () => (rows = await client.select()));
          if (rows !== ROWS) throw new Error(`${who} read ${rows} rows, expected ${ROWS}`);
          const w = await time(() => client.inserts(++run));
          if (i > 0) {
            sel[who].push(s);
            ins[who].push(w);
          }
        }
      }
      const check = await libsql.execute('SELECT count(*) AS n FROM bench_inserts');
      if (Number(check.rows[0]!.n) !== run * INSERTS) throw new Error(`expected ${run * INSERTS} inserted rows, found ${String(check.rows[0]!.n)}`);
      await burrowClient.close();
      await libsqlClient.close();
      const result = (name: string, what: string, b: number[], r: number[]): BenchResult => {
        const bs = summarize(b);
        const rs = summarize(r);
        return {
          name,
          method: `${what} against \`burrow emulator\` (its own process) on loopback, through burrow's DatabaseSession (Hrana over HTTP on undici, one stream, v3 with get_autocommit) and through @libsql/client (HTTP) in the same process, alternating which goes first; ${RUNS} runs after one warm-up.`,
          unit: 'ms',
          burrow: bs,
          reference: { name: '@libsql/client', summary: rs },
          budget: '<= 1.0x reference',
          pass: bs.median <= rs.median,
        };
      };
      return [
        result(
          'SQL: 10,000-row SELECT',
          `\`SELECT * FROM bench_orders\` (10,000 rows of 7 columns: integers, text, reals, NULLs), until every row is decoded`,
          sel.burrow,
          sel.ref,
        ),
        result(
          'SQL: 1,000 INSERTs in a transaction',
          `BEGIN, 1,000 single-row INSERTs with 4 arguments each as separate requests (one round trip each), COMMIT`,
          ins.burrow,
          ins.ref,
        ),
      ];
    } finally {
      await emu.stop();
    }
  },
};
