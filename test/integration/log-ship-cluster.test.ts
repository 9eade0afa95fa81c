import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { clickhouseSkip, freePort, startClickHouse, type ClickHouseServer } from '../helpers/clickhouse';
import { apiFor, useEmulator } from '../helpers/emulator';
import { platformIds, shipInProcess, storeAt, storedIds } from '../helpers/ship';
import type { LogStore } from '../../src/log-ship/store';

/**
 * Two ClickHouse servers as one cluster: the same HTTP and TCP ports on 127.0.0.1 and 127.0.0.2
 * (a node is reached on the store URL's port), one shard each.
 */
const skip = clickhouseSkip();
const HOSTS = ['127.0.0.1', '127.0.0.2'];
let nodes: ClickHouseServer[] = [];
let store: LogStore | null = null;
before(async () => {
  if (skip) return;
  const httpPort = await freePort(HOSTS);
  const tcpPort = await freePort(HOSTS);
  const shards = HOSTS.map((h) => `<shard><replica><host>${h}</host><port>${tcpPort}</port></replica></shard>`).join('');
  const remoteServers = `<logs_cluster>${shards}</logs_cluster>`;
  nodes = await Promise.all(HOSTS.map((host) => startClickHouse({ host, httpPort, tcpPort, remoteServers })));
});
after(async () => {
  await store?.close();
  await Promise.all(nodes.map((n) => n.close()));
});

test('--cluster: a local table on every node, a Distributed table sharded by zone, every record once', { skip }, async () => {
  const emu = await useEmulator({ logRate: 10 });
  const api = apiFor(emu);
  const zones = emu.info.pullZoneIds.slice(0, 4);
  store = storeAt(nodes[0]!.storeUrl, 'cdn_logs', 'logs_cluster');
  const from = Math.floor(emu.world.now() / 1000) * 1000 - 70 * 60_000;
  const to = from + 5 * 60_000;
  const run = shipInProcess(api.logs, store, { zones, window: { from, to } });
  assert.equal(await run.done, 0, run.lines.join(''));
  const perNode = await Promise.all(
    nodes.map(async (n) =>
      (await n.query('SELECT pullZoneId, count() FROM default.cdn_logs_local GROUP BY pullZoneId FORMAT TSV')).trim().split('\n').filter(Boolean),
    ),
  );
  assert.ok(
    perNode.every((rows) => rows.length > 0),
    `each node holds some zones: ${JSON.stringify(perNode)}`,
  );
  const zonesOn = perNode.map((rows) => rows.map((r) => r.split('\t')[0]));
  assert.deepEqual(
    zonesOn[0]!.filter((z) => zonesOn[1]!.includes(z)),
    [],
    'a zone lives on one shard',
  );
  for (const zone of zones) {
    const stored = await storedIds(store, zone, from, to);
    const platform = platformIds(emu, zone, from, to);
    assert.equal(new Set(stored).size, stored.length, `zone ${zone}: no duplicates`);
    assert.equal(stored.length, platform.length, `zone ${zone}: the platform's count`);
  }
  // again: everything is stored already, nothing is added
  const again = shipInProcess(api.logs, store, { zones, window: { from, to } });
  assert.equal(await again.done, 0, again.lines.join(''));
  for (const zone of zones) assert.equal((await storedIds(store, zone, from, to)).length, platformIds(emu, zone, from, to).length);
});
