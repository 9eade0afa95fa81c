import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, envFor, useEmulator } from '../helpers/emulator';
import { startBurrow } from '../helpers/pty';
import { until } from '../helpers/wait';
import { ORIGIN_GROUP_LB_METHOD, LB_STICKY_SESSION_TYPE } from '../../src/api/load-balancers';

test('load balancers: the list by name with method and sticky sessions; a profile shows groups by priority and origin types', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const list = await api.loadBalancers.listAll();
  const app = startBurrow([], { env: envFor(emu), cols: 80, rows: 24 });
  await app.waitFor('Screens');
  await app.press(':');
  await app.type('lb');
  await app.press('enter');
  await app.waitFor(`${list.length} profiles`);
  // the footer can be read before the last rows of the same frame are: wait for every name
  let screen = await until('every profile on screen', () => {
    const text = app.screenText();
    return list.every((lb) => text.split('\n').some((l) => l.startsWith(lb.Name!))) ? text : null;
  });
  for (const lb of list) {
    const line = screen.split('\n').find((l) => l.startsWith(lb.Name!));
    assert.ok(line, `${lb.Name} is listed`);
    assert.match(line, new RegExp(`\\s${lb.LoadBalancerId}\\s+${ORIGIN_GROUP_LB_METHOD[lb.OriginGroupLoadBalancingMethod!]}\\s+${LB_STICKY_SESSION_TYPE[lb.StickySessionType!]}\\s`));
  }

  // The first profile has every origin type in its first group.
  const first = await api.loadBalancers.get(list[0]!.LoadBalancerId);
  await app.press('enter');
  screen = await app.waitFor(`Load balancer ${first.Name} (${first.LoadBalancerId})`);
  screen = await app.waitFor(/method \w+ · sticky sessions \w+ · \d+ groups/);
  const groupLines = screen.split('\n').filter((l) => l.startsWith('▸ '));
  const byPriority = [...first.OriginGroups].sort((a, b) => a.Priority! - b.Priority!);
  assert.deepEqual(groupLines.map((l) => l.slice(2).split(/\s+/)[0]), byPriority.map((g) => g.Name!.slice(0, 14)), 'groups in priority order, lower first');
  const priorities = groupLines.map((l) => Number(l.slice(16, 21).trim()));
  assert.deepEqual(priorities, [...priorities].sort((a, b) => a - b));
  for (const type of ['Standard', 'Storage', 'EdgeScript', 'MagicContainer']) assert.match(screen, new RegExp(`^  ${type}\\s`, 'm'), `${type} origin shown by name`);
  const storage = first.OriginGroups.flatMap((g) => g.Origins).find((o) => o.OriginType === 1)!;
  assert.ok(screen.includes(`storage zone ${storage.StorageZoneId}`));
  assert.match(screen, /\s(Healthy|Degraded)\s/);

  await app.press('esc');
  await app.waitFor(`${list.length} profiles`);
  await app.press('q');
  assert.equal((await app.exited).exitCode, 0);
});
