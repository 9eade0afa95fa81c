import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole, type InProcessConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { maskSecret } from '../../src/config/redact';

// The raw record view (d) and wide mode (w) of the videos, load balancers and logs screens,
// rendered in this process (were pty tests in e2e/raw-records-wide; the SQL grid's, in the
// standalone SQL console, stays there). A copy is read from the bytes written to the terminal.

const emu = await useEmulator();
const api = apiFor(emu);
/** A terminal with no multiplexer (a copy goes straight to it), times in UTC. */
const TERMINAL = { TZ: 'UTC', TMUX: undefined, STY: undefined };

/** The JSON the emulator sends for a path (what "as the server sent it" means). */
async function serverJson(path: string): Promise<unknown> {
  const res = await fetch(`${emu.info.baseUrl}${path}`, { headers: { AccessKey: emu.info.accessKey } });
  assert.equal(res.status, 200);
  return res.json();
}

async function open(app: InProcessConsole, command: string, ready: string | RegExp): Promise<string> {
  await app.waitFor('Screens');
  await runCommand(app, command);
  return app.waitFor(ready);
}

/** The JSON an OSC 52 copy put on the clipboard (the last one written). */
function copiedText(app: InProcessConsole): string {
  const all = [...app.rawOutput().matchAll(/\x1b\]52;c;([A-Za-z0-9+/=]*)(?:\x07|\x1b\\)/g)];
  assert.ok(all.length > 0, 'an OSC 52 sequence was written');
  return Buffer.from(all[all.length - 1]![1]!, 'base64').toString('utf8');
}

test('videos: d shows the library as the server sent it, keys masked; it scrolls, y copies the masked JSON, esc closes', async () => {
  const page = (await serverJson('/videolibrary?page=1&perPage=100')) as { Items: Record<string, unknown>[] };
  const first = page.Items[0]!;
  const apiKey = String(first.ApiKey);
  const app = renderConsole(api, { cols: 100, rows: 30, env: TERMINAL });
  await open(app, 'videos', /100 of \d+ loaded/);
  // the list has no column for these: they come from the raw record only
  assert.doesNotMatch(app.screenText(), /UILanguage|WatermarkPositionLeft/);
  await app.press('list.raw');
  let screen = await app.waitFor(`Raw record · video library ${first.Id}`);
  assert.match(screen, /as the server sent it · secrets masked/);
  assert.ok(screen.includes(`"Name": ${JSON.stringify(first.Name)}`), screen);
  assert.ok(screen.includes(`"ApiKey": "${maskSecret(apiKey)}"`), `ApiKey masked:\n${screen}`);
  assert.ok(!screen.includes(apiKey), 'the key itself is not on screen');

  // scroll to the end and back: the last field of the record, then the first again
  const keys = Object.keys(first);
  await app.press('nav.bottom');
  screen = await app.waitFor(`"${keys[keys.length - 1]}"`);
  assert.ok(!screen.includes('"Id":'), 'the top scrolled away');
  assert.match(screen, /lines \d+-\d+ of \d+/);
  await app.press('nav.top');
  await app.waitFor('"Id":');
  await app.press('nav.pageDown');
  await app.waitForGone(`"Id": ${first.Id}`);

  // y copies what is shown: the server's record, every key masked
  await app.press('record.copy');
  await app.waitFor(/copied the record as JSON/);
  const copied = JSON.parse(copiedText(app)) as Record<string, unknown>;
  const expected = {
    ...first,
    ApiKey: maskSecret(apiKey),
    ReadOnlyApiKey: maskSecret(String(first.ReadOnlyApiKey)),
    ApiAccessKey: maskSecret(String(first.ApiAccessKey)),
  };
  assert.deepEqual(copied, expected);

  await app.press('record.close');
  await app.waitForGone('Raw record');
  await app.waitFor(/100 of \d+ loaded/);
  await app.press('app.quit');
  await app.exited;
});

test('load balancers: d on a profile and on an origin group shows its raw record; w shows a cut group name whole and scrolls sideways', async () => {
  const list = await api.loadBalancers.listAll();
  // a profile with an origin group whose name the 16-cell column cuts
  const index = list.findIndex((lb) => lb.OriginGroups.some((g) => `▸ ${g.Name}`.length > 16));
  assert.ok(index >= 0, 'the seed has a long origin group name');
  const lb = list[index]!;
  const rawLb = (await serverJson(`/loadbalancer/${lb.LoadBalancerId}`)) as { OriginGroups: Record<string, unknown>[] };
  const app = renderConsole(api, { cols: 80, rows: 24, env: TERMINAL });
  await open(app, 'lb', `${list.length} profiles`);
  for (let i = 0; i < index; i++) await app.press('nav.down');
  await app.waitFor(`${index + 1} of ${list.length}`);

  // the list row: Latitude lives in the raw record, not in any column
  await app.press('list.raw');
  let screen = await app.waitFor(`Raw record · load balancer ${lb.LoadBalancerId}`);
  assert.match(screen, /"OriginGroups": \[/);
  // page down until Latitude shows: where it falls depends on how many origin groups come first
  for (;;) {
    if (/"Latitude": /.test(app.screenText())) break;
    const [footer, last, total] = /lines \d+-(\d+) of (\d+)/.exec(app.screenText()) ?? [];
    assert.ok(footer && last !== total, `Latitude is somewhere in the record:\n${app.screenText()}`);
    await app.press('nav.pageDown');
    await app.waitForGone(footer);
  }
  screen = await app.waitFor(/"Latitude": /);
  await app.press('record.close');
  await app.waitFor(`${list.length} profiles`);

  await app.press('list.open');
  await app.waitFor(`Load balancer ${lb.Name} (${lb.LoadBalancerId})`);
  const byPriority = [...lb.OriginGroups].sort((a, b) => (a.Priority ?? 0) - (b.Priority ?? 0));
  const long = byPriority.find((g) => `▸ ${g.Name}`.length > 16)!;
  screen = await app.waitFor('GROUP / ORIGIN');
  assert.ok(!screen.includes(`▸ ${long.Name}`), 'cut in the normal table');

  // wide: the whole name, an indicator of where the window is, and sideways keys
  await app.press('list.wide');
  screen = await app.waitFor(`▸ ${long.Name}`);
  assert.match(screen, /wide cols 1-\d+ of 6 ›/);
  await app.press('list.lastColumn');
  screen = await app.waitFor(/wide ‹ cols? (\d+-)?6 of 6$/m);
  assert.match(screen, /· origins \w+$/m, "the end of the last column (a group's detail) is in view");
  assert.ok(!screen.includes('GROUP / ORIGIN'), 'the first column scrolled away');
  await app.press('list.firstColumn');
  await app.waitFor(/wide cols 1-\d+ of 6 ›/);
  await app.press('list.right');
  screen = await app.waitFor(/wide ‹ cols 2-\d+ of 6/);
  await app.press('list.pageLeft'); // a screen to the left, back to the start
  await app.waitFor(/wide cols 1-\d+ of 6 ›/);

  // d on the long-named group: its raw record, with what the table leaves out
  const groupRow = byPriority.indexOf(long);
  const rowsBefore = byPriority.slice(0, groupRow).reduce((n, g) => n + 1 + g.Origins.length, 0);
  await app.press('nav.top');
  for (let i = 0; i < rowsBefore; i++) await app.press('nav.down');
  await app.press('list.raw');
  screen = await app.waitFor(`Raw record · origin group ${long.Id}`);
  const raw = rawLb.OriginGroups.find((g) => g.Id === long.Id)!;
  assert.ok(screen.includes(`"Name": ${JSON.stringify(raw.Name)}`));
  assert.ok(screen.includes(`"Longitude": ${JSON.stringify(raw.Longitude)}`));
  await app.press('record.close');
  await app.waitForGone('Raw record');

  await app.press('list.wide');
  await app.waitForGone(/wide cols/);
  assert.ok(!app.screenText().includes(`▸ ${long.Name}`), 'cut again once wide mode is off');
  await app.press('app.quit');
  await app.exited;
});

test('logs: d shows the selected record as the v2 JSON record (fields the stream has no column for), w scrolls sideways, W wraps', async () => {
  const zone = emu.world.pullZones.find((z) => z.EnableLogging)!;
  const app = renderConsole(api, { cols: 100, rows: 24, env: TERMINAL });
  await open(app, `logs ${zone.Id}`, /● following/);
  await app.waitFor(/^\d\d:\d\d:\d\d\.\d{3} \d{3} /m);
  let screen = app.screenText();
  assert.doesNotMatch(screen, /ja4Fingerprint|asnOrganization/);
  await app.press('nav.up'); // select a record (this pauses following)
  await app.press('list.raw');
  screen = await app.waitFor('Raw record · v2 log record');
  for (const field of ['timestamp', 'pullZoneId', 'requestId', 'statusCode', 'host']) assert.match(screen, new RegExp(`"${field}": `), field);
  assert.ok(screen.includes(`"pullZoneId": ${zone.Id}`));
  const requestId = /"requestId": "([0-9a-f]+)"/.exec(screen)![1]!;
  // the rest of the record below: fields the stream never shows
  await app.press('nav.bottom');
  screen = await app.waitFor('"asnOrganization": ');
  assert.match(screen, /"ja4Fingerprint": /);
  assert.match(screen, /"authorizationHeader": /);
  assert.doesNotMatch(screen, /"timestamp": /);
  await app.press('nav.top');
  await app.waitFor('"timestamp": ');
  await app.press('record.close');
  await app.waitForGone('Raw record');

  // enter opens the same record in full: d there shows it too
  await app.press('list.open');
  await app.waitFor(requestId);
  await app.press('list.raw');
  await app.waitFor(`Raw record · v2 log record ${requestId}`);
  await app.press('record.close', 'app.back');
  await app.waitForGone(/request id\s/);

  await app.press('list.wide');
  screen = await app.waitFor(/wide cols 1-\d+ of 9 ›/);
  await app.press('list.lastColumn');
  screen = await app.waitFor(/wide ‹ cols? (\d+-)?9 of 9/);
  assert.match(screen, /(Safari|Firefox|Chrome)\/[\d.]+\s*$/m, 'the ends of the user agents, the last column');
  assert.doesNotMatch(screen, /^(TIME|\d\d:\d\d:\d\d)/m, 'the first columns scrolled away');
  // W wraps instead, which ends wide mode
  await app.press('logs.wrap');
  await app.waitForGone(/wide (‹ )?cols/);
  await app.waitFor(/· wrap/);
  await app.press('list.wide');
  await app.waitFor(/wide cols 1-\d+ of 9 ›/);
  assert.doesNotMatch(app.screenText().split('\n')[0]!, /wrap/);
  await app.press('app.quit');
  await app.exited;
});
