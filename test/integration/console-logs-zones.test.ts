import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole, type InProcessConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { logRows } from '../helpers/logs-screen';

// Several zones on the logs screen (`:logs A B`, and the zone picker with space), rendered in
// this process (was the pty test e2e/logs-screen-zones).

const emu = await useEmulator({ seed: 7, logRate: 6, ingestDelayMs: 500 });
const client = apiFor(emu);
const shop = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
const video = emu.world.pullZones.find((z) => z.Name === 'video-edge')!;
const api = emu.world.pullZones.find((z) => z.Name === 'api-gateway')!;
const start = (cols: number, rows: number): InProcessConsole => renderConsole(client, { cols, rows, env: { TZ: 'UTC' } });

async function palette(app: InProcessConsole, text: string): Promise<void> {
  await runCommand(app, text);
}

const zonesOnScreen = (screen: string) => new Set(logRows(screen).map((r) => r.ZONE!));

test(":logs A B follows both merged: ZONE column with both zones, time order, a zone strip with each zone's state and budget", async () => {
  const app = start(140, 40);
  await app.waitFor('Screens');
  await palette(app, `logs ${shop.Id} ${video.Id}`);
  await app.waitFor(`2 zones ${shop.Id} shop-assets, ${video.Id} video-edge`);
  let screen = await app.waitFor(/TIME\s+ZONE\s+ST /);
  // each zone in the strip, following, with its own budget
  screen = await app.waitFor(new RegExp(`${shop.Id} shop-assets ● following \\d+/28 · ${video.Id} video-edge ● following \\d+/28`), 20_000);
  await app.waitFor(/newest of [\d,]+/);
  screen = app.screenText();
  const rows = logRows(screen);
  assert.ok(rows.length >= 10, screen);
  assert.deepEqual([...zonesOnScreen(screen)].sort(), [String(shop.Id), String(video.Id)].sort(), `both zones in the ZONE column:\n${screen}`);
  for (const r of rows) assert.match(r.ST!, /^\d{3}$/, `a status under ST: ${r.TIME}`);
  const times = rows.map((r) => r.TIME!);
  assert.deepEqual([...times].sort(), times, 'merged in time order');

  // the detail view names the record's zone
  await app.press('screen.pause');
  await app.press('list.open');
  screen = await app.waitFor(/pull zone\s+\d+ \((shop-assets|video-edge)\)/);
  await app.press('app.back');
  // wide mode keeps the ZONE column
  await app.press('list.wide');
  screen = await app.waitFor(/wide /);
  assert.match(screen, /TIME\s+ZONE\s+ST /);
  app.unmount();
});

test('a zone that cannot be read shows its failure in the strip while the other zone goes on', async () => {
  const off = emu.world.pullZones.find((z) => !z.EnableLogging)!;
  const app = start(140, 30);
  await app.waitFor('Screens');
  await palette(app, `logs ${api.Id} ${off.Id}`);
  // the failing zone comes first in the strip, the other one follows
  const screen = await app.waitFor(new RegExp(`${off.Id} ${off.Name} ✖ 404 Not Found logging_disabled.* · ${api.Id} api-gateway ● following`), 20_000);
  assert.match(screen, /● following/);
  await app.waitFor(/newest of [\d,]+/);
  app.unmount();
});

test('zone picker: space selects zones (✓), enter follows the selected ones merged', async () => {
  const app = start(140, 30);
  await app.waitFor('Screens');
  await palette(app, 'logs');
  await app.waitFor('Pull zones with logging');
  await app.waitFor(String(api.Id));
  // the rows in id order: shop, video, api, docs; select the first and the third
  await app.press('logs.pickZone');
  await app.waitFor(new RegExp(`^${shop.Id} ✓ +shop-assets`, 'm'));
  // two moves and a select in one read: the select acts on the row the moves reached
  await app.type('jj ');
  const screen = await app.waitFor(/2 selected/);
  assert.match(screen, new RegExp(`^${api.Id} ✓ +api-gateway`, 'm'));
  assert.match(screen, new RegExp(`^${video.Id} +video-edge`, 'm'));
  await app.press('list.open');
  await app.waitFor(`2 zones ${shop.Id} shop-assets, ${api.Id} api-gateway`);
  await app.waitFor(new RegExp(`${shop.Id} shop-assets ● following \\d+/28 · ${api.Id} api-gateway ● following`), 20_000);
  app.unmount();
});

test('a zone out of budget (429) shows its backoff in the strip, first, while the other zone goes on following', async () => {
  const app = start(160, 30);
  await app.waitFor('Screens');
  await palette(app, `logs ${shop.Id} ${video.Id}`);
  await app.waitFor(new RegExp(`${shop.Id} shop-assets ● following \\d+/28 · ${video.Id} video-edge ● following`), 20_000);
  // someone else spends video-edge's 30 requests per 10 s at the platform, again and again
  let hammering = true;
  const url = `${emu.info.loggingUrl}/v2/pullzones/${video.Id}/logs?limit=1`;
  const hammer = (async () => {
    while (hammering) {
      await Promise.all(Array.from({ length: 10 }, () => fetch(url, { headers: { AccessKey: emu.info.accessKey } }).then((r) => r.arrayBuffer())));
      // pacing is the point: another client spending the zone's budget at a steady rate
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    const screen = await app.waitFor(
      new RegExp(`${video.Id} video-edge 429 rate limited(, retry in \\d+s)? \\d+/28 · ${shop.Id} shop-assets ● following`),
      30_000,
    );
    assert.match(screen, /● following/, 'the merged view still follows');
  } finally {
    hammering = false;
    await hammer;
  }
  app.unmount();
});
