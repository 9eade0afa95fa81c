// The logging origin of the v1 benchmark, in its own process (its work is not the console's):
//   node --import tsx bench/v1-day-server.ts RECORDS
// Serves the bench day file (bench/lib/v1-day.ts) at /{MM-dd-yy}/{zone}.log as the platform does
// (text/plain, Content-Length, read from disk as it is sent), the zone at /pullzone/{id}, and 503
// for anything else. Prints its port on stdout.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { v1Day } from './lib/v1-day';

const day = v1Day(Number(process.argv[2] ?? 2_000_000));
const server = http.createServer((req, res) => {
  const url = req.url ?? '';
  if (url.startsWith(`/${day.date}/${day.zoneId}.log`)) {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(day.bytes) });
    fs.createReadStream(day.file, { highWaterMark: 256 * 1024 }).pipe(res);
    return;
  }
  if (url.startsWith(`/pullzone/${day.zoneId}`)) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ Id: day.zoneId, Name: 'bench-zone', EnableLogging: true, Hostnames: [] }));
    return;
  }
  res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"unavailable","message":"bench origin"}}');
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port, day })}\n`);
});
process.on('disconnect', () => process.exit(0));
