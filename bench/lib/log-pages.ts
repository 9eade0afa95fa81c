import { spawn } from 'node:child_process';

/** Page bodies from the generator's process, as they come (each with its length in front), each copied once. */
export async function* pages(records: number): AsyncGenerator<Buffer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/log-pages-child.ts', String(records)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let body: Buffer | null = null;
  let filled = 0;
  let head = Buffer.alloc(0);
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    let at = 0;
    while (at < chunk.length) {
      if (body === null) {
        const need = 4 - head.length;
        head = Buffer.concat([head, chunk.subarray(at, at + need)]);
        at += Math.min(need, chunk.length - at);
        if (head.length < 4) break;
        body = Buffer.allocUnsafe(head.readUInt32BE(0));
        filled = 0;
        head = Buffer.alloc(0);
      }
      const take = Math.min(body.length - filled, chunk.length - at);
      chunk.copy(body, filled, at, at + take);
      filled += take;
      at += take;
      if (filled === body.length) {
        yield body;
        body = null;
      }
    }
  }
}
