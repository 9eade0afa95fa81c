import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { ORIGIN_GROUP_LB_METHOD, LB_STICKY_SESSION_TYPE } from '../../src/api/load-balancers';

// The console rendered in this process (test/helpers/console.tsx): the same screens and keys as
// the pty tests, without a terminal, in a fraction of the time. These are the load balancer
// screen's pty test (test/e2e/lb-screen.test.ts) and the help overlay, driven by action names.

const emu = await useEmulator();
const api = apiFor(emu);
const consoles: { unmount(): void }[] = [];
after(() => consoles.forEach((c) => c.unmount()));

test('load balancers in process: the list by name with method and sticky sessions; enter opens a profile, esc goes back', async () => {
  const list = await api.loadBalancers.listAll();
  const app = renderConsole(api, { cols: 80, rows: 24 });
  consoles.push(app);
  await app.waitFor('Screens');
  await app.press('app.palette');
  await app.type('lb');
  await app.press('palette.run');
  const screen = await app.waitFor(`${list.length} profiles`);
  for (const lb of list) {
    const line = screen.split('\n').find((l) => l.startsWith(lb.Name!));
    assert.ok(line, `${lb.Name} is listed:\n${screen}`);
    assert.match(
      line,
      new RegExp(
        `\\s${lb.LoadBalancerId}\\s+${ORIGIN_GROUP_LB_METHOD[lb.OriginGroupLoadBalancingMethod!]}\\s+${LB_STICKY_SESSION_TYPE[lb.StickySessionType!]}\\s`,
      ),
    );
  }
  const first = list[0]!;
  await app.press('list.open');
  await app.waitFor(`Load balancer ${first.Name} (${first.LoadBalancerId})`);
  await app.waitFor(/method \w+ · sticky sessions \w+ · \d+ groups/);
  await app.press('app.back');
  await app.waitFor(`${list.length} profiles`);
});

test('help in process: ? lists the actions of the screen with their keys, from the keymap', async () => {
  const app = renderConsole(api, { cols: 100, rows: 30 });
  consoles.push(app);
  await app.waitFor('Screens');
  await app.press('app.help');
  const help = await app.waitFor('open the command palette');
  assert.match(help, /:\s+open the command palette/);
  await app.press('app.back');
  await app.waitFor('Screens');
});
