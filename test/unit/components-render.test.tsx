import { test } from 'node:test';
import assert from 'node:assert/strict';
import React from 'react';
import { renderToString } from 'ink';
import { Gauge, gaugeBar } from '../../src/components/Gauge';
import * as listTitle from '../../src/components/ListTitle';
import { Confirm } from '../../src/components/Confirm';
import { StatusBar } from '../../src/components/StatusBar';
import { Header } from '../../src/components/Header';
import { HelpOverlay } from '../../src/components/HelpOverlay';
import { Table, type Column } from '../../src/components/Table';
import { sparkline } from '../../src/components/Sparkline';
import { ThemeContext } from '../../src/components/theme';
import { InputRouter } from '../../src/keys/input-router';
import { buildKeymap, CORE_ACTIONS } from '../../src/keys/keymap';
import { InputContext } from '../../src/keys/input-hooks';
import { ConsoleContext } from '../../src/state/store-hooks';
import { DomainStores } from '../../src/state/domain-stores';
import { createUiStore } from '../../src/state/ui-store';
import { diffValues } from '../../src/text/diff';
import { resolveSettings } from '../../src/config/settings';
import type { Api } from '../../src/api/index';
import { TableScopeContext, TableViewsContext } from '../../src/components/table-views';

const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
const draw = (node: React.ReactNode, columns = 80, color = false) =>
  strip(renderToString(<ThemeContext.Provider value={{ color }}>{node}</ThemeContext.Provider>, { columns })).split('\n');

test('Gauge: used of max as a bar with numbers; max-only limits and unlimited', () => {
  assert.equal(gaugeBar(3, 12, 12), '███░░░░░░░░░');
  assert.equal(gaugeBar(1, 1000, 10), '█░░░░░░░░░', 'any usage shows at least one cell');
  assert.equal(gaugeBar(0, 10, 4), '░░░░');
  const [line] = draw(<Gauge label="applications" labelWidth={14} width={80} used={3} max={12} />);
  assert.match(line!, /^applications   █+░+ 3 \/ 12  25%$/);
  assert.equal(draw(<Gauge label="volume size" labelWidth={14} width={80} used={null} max={null} />)[0], 'volume size    unlimited');
  assert.equal(draw(<Gauge label="regions" labelWidth={14} width={80} used={null} max={10} />)[0], 'regions        max 10');
});

test('Confirm: title, what will be sent, keys; long diffs are cut to the height with a count', () => {
  const lines = diffValues({ a: 1, b: 'x' }, { a: 2, b: 'x', c: true });
  const out = draw(<Confirm title="Update zone 7" lines={lines} yesKeys="y" noKeys="n/esc" yesLabel="send" width={60} height={12} />, 60);
  const text = out.join('\n');
  assert.match(text, /Update zone 7/);
  assert.match(text, /What will be sent:/);
  assert.match(text, /~ a: 1 → 2/);
  assert.match(text, /\+ c: true/);
  assert.doesNotMatch(text, /b:/, 'unchanged fields are not listed');
  assert.match(text, /y send {2}n\/esc cancel/);
  const many = diffValues({}, Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, i])));
  const small = draw(<Confirm title="Big" lines={many} yesKeys="y" noKeys="n" width={60} height={12} />, 60).filter((l) => l !== '');
  assert.ok(small.length <= 12, `fits in 12 lines (got ${small.length})`);
  assert.match(small.join('\n'), /… and \d+ more fields/);
});

test('StatusBar: age, the request error, a message that expires, hints', () => {
  const request = { lastSuccessAt: 10_000, lastError: 'GET /mc/limits: connection refused', lastErrorAt: 12_000, paused: false };
  const hints = CORE_ACTIONS.filter((a) => a.context === 'global');
  const out = draw(<StatusBar width={80} now={13_000} request={request} message={{ text: 'saved', level: 'info', at: 12_500, ttlMs: 1000 }} hints={hints} />);
  assert.equal(out[0], 'refreshed 3s ago  ✖ GET /mc/limits: connection refused');
  assert.equal(out[1], 'saved', 'the message takes the hints line while the error holds the first');
  const later = draw(
    <StatusBar
      width={80}
      now={20_000}
      request={{ ...request, lastError: null, paused: true }}
      message={{ text: 'saved', level: 'info', at: 12_500, ttlMs: 1000 }}
      hints={hints}
    />,
  );
  assert.equal(later[0], 'paused · refreshed 10s ago');
  // the most needed first (ActionDef.priority)
  assert.equal(later[1], '? help  q quit  : command  esc back');
});

test('Header without colour: badges stay readable as text; long breadcrumbs keep their end', () => {
  const [emu] = draw(<Header width={80} emulator profileName={null} endpoint="127.0.0.1:4000" readOnly crumbs={['home', 'containers']} />);
  assert.match(emu!, /^burrow \[EMULATOR\] 127\.0\.0\.1:4000 \[READ-ONLY\]\s+home › containers$/);
  const crumbs = Array.from({ length: 12 }, (_, i) => `screen${i}`);
  const [long] = draw(<Header width={80} emulator={false} profileName="prod" endpoint="api.bunny.net" readOnly={false} crumbs={crumbs} />);
  assert.equal(long!.length, 80);
  assert.match(long!, /^burrow ‹prod› api\.bunny\.net .*….*screen11$/);
  const [colored] = renderToString(
    <ThemeContext.Provider value={{ color: true }}>
      <Header width={80} emulator profileName={null} endpoint="h" readOnly={false} crumbs={['home']} />
    </ThemeContext.Provider>,
    { columns: 80 },
  ).split('\n');
  assert.match(strip(colored!), / EMULATOR /);
});

test('HelpOverlay fits its height and says where you are in a long list', () => {
  const lines = Array.from({ length: 50 }, (_, i) => ({ text: `line ${i}` }));
  const out = draw(<HelpOverlay lines={lines} scroll={10} width={80} height={8} />).filter((l) => l !== '');
  assert.equal(out.length, 8);
  assert.match(out[0]!, /lines 11-17 of 50/);
  assert.equal(out[1], 'line 10');
});

test('sparkline scales between min and max', () => {
  assert.equal(sparkline([1, 2, 3, 4, 5, 6, 7, 8], 8), '▁▂▃▄▅▆▇█');
  assert.equal(sparkline([5, 5, 5], 3), '███');
  assert.equal(sparkline([0, 10], 1), '█', 'only the last values that fit');
  assert.equal(sparkline([0, 5, 10], 3, { fromZero: true }), '▁▅█');
});

test('Table: 100,000 rows render only the window, with the header and position', () => {
  const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `row-${i}` }));
  const columns: Column<(typeof rows)[number]>[] = [
    { id: 'id', header: 'ID', width: 8, align: 'right', cell: (r) => r.id },
    { id: 'name', header: 'NAME', cell: (r) => r.name },
  ];
  const ui = createUiStore({ readOnly: false, home: 'home', onQuit: () => {} });
  const stores = new DomainStores({ api: {} as Api, settings: resolveSettings({}, {}, {}), ui, now: Date.now });
  const instance = ui.getState().stack[0]!;
  ui.getState().setView(`${instance.key}:t`, { selected: 99_990, offset: 0 });
  const router = new InputRouter({ keymap: () => buildKeymap(CORE_ACTIONS).keymap });
  const out = draw(
    <ConsoleContext.Provider value={{ stores, info: { profileName: null, emulator: true, endpoint: 'x', readOnly: false, color: false } }}>
      <InputContext.Provider value={{ router, layerId: null }}>
        <TableViewsContext.Provider value={ui}>
          <TableScopeContext.Provider value={instance.key}>
            <Table id="t" rows={rows} columns={columns} width={80} height={12} />
          </TableScopeContext.Provider>
        </TableViewsContext.Provider>
      </InputContext.Provider>
    </ConsoleContext.Provider>,
  );
  assert.equal(out.length, 12);
  assert.match(out[0]!, /^ {6}ID NAME/);
  assert.equal(out.filter((l) => /row-\d+/.test(l)).length, 10, 'ten data rows, not 100,000');
  assert.ok(
    out.some((l) => /99990 row-99990/.test(l)),
    'the selected row is in the window',
  );
  assert.match(out[11]!, /99991 of 100000$/);
});

test('ListTitle: title, loading, count with its noun and hint, errors made safe', () => {
  const { ListTitle } = listTitle;
  assert.equal(draw(<ListTitle title="Databases" loading count={0} noun={['database', 'databases']} />)[0], 'Databases  loading…');
  assert.equal(
    draw(<ListTitle title="Databases" loading={false} count={1} noun={['database', 'databases']} hint="enter: SQL" />)[0],
    'Databases  1 database · enter: SQL',
  );
  assert.equal(
    draw(<ListTitle title="LB" loading={false} count={3} noun={['profile', 'profiles']} errors={[null, 'boom\x1b[2J']} />)[0],
    'LB  3 profiles  ✖ boom\\x1b[2J',
  );
  assert.equal(draw(<ListTitle title="Videos" loading={false} summary="2 of 9 · scroll for more" />)[0], 'Videos  2 of 9 · scroll for more');
});
