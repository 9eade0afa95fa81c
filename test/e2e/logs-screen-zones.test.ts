import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envFor, useEmulator } from '../helpers/emulator';
import { type PtySession, runCommand, startBurrow } from '../helpers/pty';

// Several zones on the logs screen (`:logs A B`, and the zone picker with space), in a pty.

const emu = await useEmulator({ seed: 7, logRate: 6, ingestDelayMs: 500 });
const shop = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
const video = emu.world.pullZones.find((z) => z.Name === 'video-edge')!;
const api = emu.world.pullZones.find((z) => z.Name === 'api-gateway')!;
// a time, then the zone id (ZONE column), then the status
const ROW = /^(\d\d:\d\d:\d\d\.\d{3}) (\d+)\s+(\d{3}) /;

async function palette(app: PtySession, text: string): Promise<void> {
  await runCommand(app, text);
}

const zonesOnScreen = (screen: string) =>
  new Set(
    screen
      .split('\n')
      .map((l) => ROW.exec(l)?.[2])
      .filter((z): z is string => z !== undefined),
  );

test(":logs A B follows both merged: ZONE column with both zones, time order, a zone strip with each zone's state and budget", async () => {
  const app = startBurrow([], { env: envFor(emu), cols: 140, rows: 40 });
  await app.waitFor('Screens');
  await palette(app, `logs ${shop.Id} ${video.Id}`);
  await app.waitFor(`2 zones ${shop.Id} shop-assets, ${video.Id} video-edge`);
  let screen = await app.waitFor(/TIME\s+ZONE\s+ST /);
  // each zone in the strip, following, with its own budget
  screen = await app.waitFor(new RegExp(`${shop.Id} shop-assets ● following \\d+/28 · ${video.Id} video-edge ● following \\d+/28`), 20_000);
  await app.waitFor(/newest of [\d,]+/);
  await app.flush();
  screen = app.screenText();
  const rows = screen.split('\n').filter((l) => ROW.test(l));
  assert.ok(rows.length >= 10, screen);
  assert.deepEqual([...zonesOnScreen(screen)].sort(), [String(shop.Id), String(video.Id)].sort(), `both zones in the ZONE column:\n${screen}`);
  const times = rows.map((l) => ROW.exec(l)![1]!);
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
  app.kill();
  await app.exited;
});

test('a zone that cannot be read shows its failure in the strip while the other zone goes on', async () => {
  const off = emu.world.pullZones.find((z) => !z.EnableLogging)!;
  const app = startBurrow([], { env: envFor(emu), cols: 140, rows: 30 });
  await app.waitFor('Screens');
  await palette(app, `logs ${api.Id} ${off.Id}`);
  // the failing zone comes first in the strip, the other one follows
  const screen = await app.waitFor(new RegExp(`${off.Id} ${off.Name} ✖ 404 Not Found logging_disabled.* · ${api.Id} api-gateway ● following`), 20_000);
  assert.match(screen, /● following/);
  await app.waitFor(/newest of [\d,]+/);
  app.kill();
  await app.exited;
});

test('zone picker: space selects zones (✓), enter follows the selected ones merged', async () => {
  const app = startBurrow([], { env: envFor(emu), cols: 140, rows: 30 });
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
  app.kill();
  await app.exited;
});

test('a zone out of budget (429) shows its backoff in the strip, first, while the other zone goes on following', async () => {
  const app = startBurrow([], { env: envFor(emu), cols: 160, rows: 30 });
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
  app.kill();
  await app.exited;
});
