import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { tableRows } from '../helpers/pty';
import { maskSecret } from '../../src/config/redact';
import { osc52, tmuxPassthrough } from '../../src/clipboard/osc52';
import { formatCount } from '../../src/renderers/format';

const HEADERS = ['NAME', 'ID', 'VIDEOS', 'STORAGE', 'TRAFFIC', 'CREATED', 'REGIONS', 'DRM'];
const rowsOf = (screen: string) => tableRows(screen, 'NAME', HEADERS);

// The videos screen rendered in this process (was a pty test). The copy reads the environment of
// this process: TMUX names a tmux that is not running, as a pane's would after its server died.
const savedTmux = process.env.TMUX;
process.env.TMUX = '/tmp/tmux-1000/default,123,0';
after(() => (savedTmux === undefined ? delete process.env.TMUX : (process.env.TMUX = savedTmux)));

test('videos: page size, load more near the end, server-side search, sort; detail with masked keys, reveal and OSC 52 copy', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const all = await api.videoLibraries.listAll();
  const app = renderConsole(api, { cols: 80, rows: 24 });
  await app.waitFor('Screens');
  await app.press('app.palette');
  await app.type('videos');
  await app.press('palette.run');
  let screen = await app.waitFor(`100 of ${all.length} loaded · page size 100`);
  assert.match(screen, /NAME\s+ID\s+VIDEOS\s+STORAGE\s+TRAFFIC\s+CREATED\s+REGIONS\s+DRM/);
  assert.ok(screen.includes(String(all[0]!.Id)), 'the first library of page 1');

  // Page size: a bad value is refused with what is allowed, a good one reloads from page 1.
  await app.press('videos.pageSize');
  await app.type('3');
  await app.press('prompt.apply');
  await app.waitFor('✖ page size must be a whole number from 5 to 1000, got "3"');
  await app.press('backspace');
  await app.type('10');
  await app.press('prompt.apply');
  screen = await app.waitFor(`10 of ${all.length} loaded · page size 10`);
  assert.deepEqual(
    rowsOf(screen).map((r) => Number(r.ID)),
    all.slice(0, 10).map((l) => l.Id),
  );

  // Scrolling to the end loads the next page, one page, not everything.
  await app.press('nav.bottom');
  await app.waitFor(`20 of ${all.length} loaded`);
  assert.match(app.screenText(), /10 of 20/, 'the selection stayed on row 10');
  // a further page would have been asked for as this one arrived: a key's round trip later it
  // has reached the emulator, or there is none
  const requests = emu.faultCounters().management.requests;
  await app.press('nav.down');
  await app.waitFor('11 of 20');
  await app.press('nav.up');
  await app.waitFor('10 of 20');
  assert.equal(emu.faultCounters().management.requests, requests, 'still one page more, not all at once');
  assert.match(app.screenText(), new RegExp(`20 of ${all.length} loaded`));

  // Sort by videos, descending: the whole set is loaded for it, so the first row has the most
  // videos of every library, not of the 20 loaded so far.
  await app.press('nav.top', 'list.sort', 'list.sort', 'list.sort', 'list.sortReverse');
  screen = await app.waitFor(new RegExp(`${all.length} libraries · page size 10[\\s\\S]*sorted by videos ↓`));
  const most = Math.max(...all.map((l) => l.VideoCount ?? 0));
  assert.ok(most > Math.max(...all.slice(0, 20).map((l) => l.VideoCount ?? 0)), 'the seed has a bigger library past the first 20');
  assert.equal(rowsOf(screen)[0]!.VIDEOS, formatCount(most), `first row has ${formatCount(most)} videos:\n${screen}`);
  await app.press('list.sort', 'list.sort', 'list.sort', 'list.sort', 'list.sort', 'list.sort');
  await app.waitForGone('sorted by');

  // Search on the server.
  await app.press('videos.search');
  await app.type('acme');
  await app.press('prompt.apply');
  const found = await api.videoLibraries.listAll('acme');
  screen = await app.waitFor(`search "acme" · 10 of ${found.length} loaded`);
  const rows = rowsOf(screen);
  assert.equal(rows.length, Math.min(10, found.length));
  for (const r of rows) assert.match(r.NAME!, /^acme/, 'every row matches');

  // Detail: every group, keys masked.
  await app.press('list.open');
  const lib = found[0]!;
  screen = await app.waitFor(`Video library ${lib.Name} (${lib.Id})`);
  assert.match(screen, /▸ general/);
  await app.press('list.filter');
  await app.type('ApiKey');
  await app.press('filter.apply');
  screen = await app.waitFor(/ApiKey\s+•+/);
  assert.ok(screen.includes(maskSecret(lib.ApiKey)), 'ApiKey masked');
  assert.ok(!screen.includes(lib.ApiKey!), 'the key itself is not on the screen');
  assert.ok(!app.rawOutput().includes(lib.ApiKey!), 'nor was it ever written');

  // v reveals it for a few seconds, then it is masked again.
  await app.press('videos.reveal');
  await app.waitFor(lib.ApiKey!);
  await app.waitForGone(lib.ApiKey!, 8000);

  // c copies it through OSC 52. TMUX is set but names no running tmux, so its options cannot be
  // read: a plain OSC 52 goes out (what tmux takes with set-clipboard on) and the status does not
  // claim a copy.
  await app.press('videos.copy');
  await app.waitFor('sent ApiKey (OSC 52); tmux needs set-clipboard on');
  assert.ok(app.rawOutput().includes(osc52(lib.ApiKey!)), 'a plain OSC 52 sequence');
  assert.ok(!app.rawOutput().includes(tmuxPassthrough(osc52(lib.ApiKey!))), 'not a passthrough that tmux drops by default');

  // esc clears the filter, then closes the detail.
  await app.press('app.back', 'app.back');
  await app.waitFor(`search "acme"`);
  await app.press('app.quit');
  await app.exited;
});
