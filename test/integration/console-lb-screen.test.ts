import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { runCommand, tableRows } from '../helpers/pty';
import { ORIGIN_GROUP_LB_METHOD, LB_STICKY_SESSION_TYPE } from '../../src/api/load-balancers';

// The load balancer screen, rendered in this process (was a pty test: nothing here needs a terminal).

test('load balancers: the list by name with method and sticky sessions; a profile shows groups by priority and origin types', async () => {
  const emu = await useEmulator();
  const api = apiFor(emu);
  const list = await api.loadBalancers.listAll();
  const app = renderConsole(api, { cols: 80, rows: 24 });
  await app.waitFor('Screens');
  await runCommand(app, 'lb');
  let screen = await app.waitFor(`${list.length} profiles`);
  for (const lb of list) {
    const line = screen.split('\n').find((l) => l.startsWith(lb.Name!));
    assert.ok(line, `${lb.Name} is listed`);
    assert.match(
      line,
      new RegExp(
        `\\s${lb.LoadBalancerId}\\s+${ORIGIN_GROUP_LB_METHOD[lb.OriginGroupLoadBalancingMethod!]}\\s+${LB_STICKY_SESSION_TYPE[lb.StickySessionType!]}\\s`,
      ),
    );
  }

  // The first profile has every origin type in its first group.
  const first = await api.loadBalancers.get(list[0]!.LoadBalancerId);
  await app.press('list.open');
  await app.waitFor(`Load balancer ${first.Name} (${first.LoadBalancerId})`);
  screen = await app.waitFor(/method \w+ · sticky sessions \w+ · \d+ groups/);
  const groups = tableRows(screen, 'GROUP / ORIGIN', ['GROUP / ORIGIN', 'PRIO', 'WEIGHT', 'ON', 'HEALTH', 'LOCATION']).filter((r) =>
    r['GROUP / ORIGIN']!.startsWith('▸ '),
  );
  const byPriority = [...first.OriginGroups].sort((a, b) => a.Priority! - b.Priority!);
  assert.deepEqual(
    groups.map((r) => r['GROUP / ORIGIN']!.slice(2)),
    byPriority.map((g) => g.Name!.slice(0, 14)),
    'groups in priority order, lower first',
  );
  assert.deepEqual(
    groups.map((r) => Number(r.PRIO)),
    byPriority.map((g) => g.Priority),
    'each group with its priority',
  );
  for (const type of ['Standard', 'Storage', 'EdgeScript', 'MagicContainer'])
    assert.match(screen, new RegExp(`^  ${type}\\s`, 'm'), `${type} origin shown by name`);
  const storage = first.OriginGroups.flatMap((g) => g.Origins).find((o) => o.OriginType === 1)!;
  assert.ok(screen.includes(`storage zone ${storage.StorageZoneId}`));
  assert.match(screen, /\s(Healthy|Degraded)\s/);

  await app.press('app.back');
  await app.waitFor(`${list.length} profiles`);
  await app.press('app.quit');
  await app.exited;
});
