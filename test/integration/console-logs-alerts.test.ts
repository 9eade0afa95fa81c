import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole, type InProcessConsole } from '../helpers/console';
import { until } from '../helpers/wait';
import { EmulatorClock } from '../../src/emulator/clock';
import { loggingStats } from '../../src/emulator/logging/index';
import { openZone } from '../helpers/logs-screen';

// The logs screen's alert rules (A), rendered in this process (was the pty tests
// e2e/logs-screen-alerts and the console's half of e2e/logs-alert-limits): the banner, the bell
// and the desktop notification bytes written to the terminal, acknowledging, and the "cleared"
// banner; a rule with a huge value refused.
//
// A rule's window ends where the follow has every record: the platform's clock (the `to` of the
// last poll) less the ingestion lag. So the test moves the emulator's clock instead of waiting a
// window out in real time. It starts a minute behind the machine's: a step never puts the platform
// ahead of the console's own clock, which a real platform never is either.
const clock = new EmulatorClock(Date.now() - 60_000);
const emu = await useEmulator({ seed: 9, logRate: 6, ingestDelayMs: 500, now: clock.now });
const api = apiFor(emu);
const busy = emu.world.pullZones.find((z) => z.Name === 'shop-assets')!;
/** A terminal as the pty tests' minimal environment has it: none of the variables that name one, no multiplexer. */
const PLAIN_TERMINAL = {
  TZ: 'UTC',
  TERM: 'xterm-256color',
  TERM_PROGRAM: undefined,
  TMUX: undefined,
  STY: undefined,
  KITTY_WINDOW_ID: undefined,
  WEZTERM_PANE: undefined,
  GHOSTTY_RESOURCES_DIR: undefined,
  LC_TERMINAL: undefined,
  WT_SESSION: undefined,
};
const start = (env: Record<string, string | undefined> = {}): InProcessConsole =>
  renderConsole(api, { cols: 110, rows: 30, env: { ...PLAIN_TERMINAL, ...env } });
// every second of this zone's traffic has successes: certain to fire
const RULE = 'status=2xx rate>0.1/s over 10s';
const ESC = '\x1b';
const BEL = '\x07';

async function addRule(app: InProcessConsole, rule: string): Promise<void> {
  await app.press('logs.alerts');
  await app.waitFor('Alert rules');
  await app.type(rule);
  await app.press('prompt.apply');
}

/** v2 requests the emulator answered for the zone (the console's polls). */
const polls = () => loggingStats(emu.world).zone(busy.Id).v2;
/** Small against the re-check window, so records that turn up late are still read: time runs faster, it does not jump. */
const STEP_MS = 2000;

/**
 * Moves the platform's time on by STEP_MS, then has the console poll at once (r) and waits for
 * that poll (the zone's budget, 28 requests in 10 s, may hold one back), until `pattern` is on
 * the screen; 30 steps are a minute of the platform's time.
 */
async function fastForwardUntil(app: InProcessConsole, pattern: RegExp, maxSteps = 30): Promise<string> {
  for (let step = 0; step < maxSteps && !pattern.test(app.screenText()); step++) {
    const before = polls();
    clock.advance(STEP_MS);
    await app.press('screen.refresh');
    await until("the console to poll after the platform's time moved", () => polls() > before, 20_000);
  }
  return app.waitFor(pattern, 5000);
}

const NOTIFY = `${ESC}]777;notify;burrow alert;${RULE}: `;
const anyNotification = (raw: string) => [`${ESC}]777;`, `${ESC}]9;`, `${ESC}]99;`].some((s) => raw.includes(s));

test('A: a bad rule is pointed at; a rule that fires shows a banner until acknowledged, rings the bell and notifies (WezTerm); it clears when its records stop', async () => {
  const app = start({ TERM_PROGRAM: 'WezTerm' });
  await openZone(app, busy.Id);

  await addRule(app, 'status=5x rate>2/s over 60s');
  let screen = await app.waitFor('✖ at "5x" (column 8): "5x" is not a status code');
  assert.match(screen, /new rule: status=5x rate>2\/s over 60s\s*\n.*\n {17}\^\^/, 'the pointer under the bad part');
  await app.press('ctrl-u');
  await app.type(RULE);
  await app.press('prompt.apply');
  screen = await app.waitFor(new RegExp(`› ${RULE.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
  assert.doesNotMatch(screen, /✖/);
  await app.press('prompt.cancel');
  await app.waitForGone('Alert rules');

  screen = await app.waitFor(/\[a acknowledge\] ▲ ALERT status=2xx rate>0\.1\/s over 10s — [\d.]+\/s at \d\d:\d\d:\d\d/, 60_000);
  const raw = app.rawOutput();
  const at = raw.indexOf(NOTIFY);
  assert.ok(at > 0, 'the OSC 777 notification was written');
  assert.equal(raw[at - 1], BEL, 'after the bell');
  assert.match(raw.slice(at + NOTIFY.length), /^[\d.]+\/s\x07/, 'the observed rate, then the end of the sequence');

  // acknowledged: the banner goes, the rule stays firing in the panel
  await app.press('logs.ackAlert');
  await app.waitForGone('▲ ALERT');
  await app.press('logs.alerts');
  await app.waitFor(/› status=2xx rate>0\.1\/s over 10s\s+FIRING since \d\d:\d\d:\d\d · now [\d.]+\/s/);
  await app.press('prompt.cancel');
  // (the panel gone before the next key: an esc read together with it would be alt-f)
  await app.waitForGone('Alert rules');

  // only 4xx records from now on (a server filter): the rule's records stop, so it clears after a
  // whole window (10 s of the platform's time) under its threshold
  await app.press('logs.filters');
  await app.waitFor('Server filters');
  await app.type('4xx');
  await app.press('prompt.apply');
  await app.waitFor('server: status=4xx');
  await app.waitFor(/● following/);
  screen = await fastForwardUntil(app, /\[a acknowledge\] ✔ cleared status=2xx rate>0\.1\/s over 10s at \d\d:\d\d:\d\d after \d+s \(now 0\/s\)/);
  await app.press('logs.ackAlert');
  await app.waitForGone('cleared status=2xx');
  // the rule lives only as long as the console: quitting asks first
  await app.press('app.quit');
  await app.waitFor(/Quit burrow\?[\s\S]*1 alert rule on the logs screen/);
  await app.press('confirm.yes');
  await app.exited;
});

test('a plain TERM: the banner and the bell, but no notification sequence; the rule can be removed', async () => {
  const app = start();
  await openZone(app, busy.Id);
  await addRule(app, RULE);
  await app.press('prompt.cancel');
  await app.waitFor(/▲ ALERT status=2xx rate>0\.1\/s over 10s/, 60_000);
  const raw = app.rawOutput();
  assert.ok(raw.includes(BEL), 'the bell');
  assert.ok(!anyNotification(raw), 'no OSC 9/99/777 for a terminal not known to show them');
  await app.press('logs.alerts');
  await app.waitFor(/› status=2xx rate>0\.1\/s over 10s/);
  await app.press('ctrl-x');
  await app.waitFor('no rules yet');
  await app.press('prompt.cancel');
  await app.waitForGone('▲ ALERT');
  // no rule left: nothing to lose, quitting does not ask
  await app.press('app.quit');
  await app.exited;
});

test('the console: a rule with a 45,000-character value is refused in the rules form, and the console goes on', async () => {
  const app = start();
  await openZone(app, busy.Id);
  await app.press('logs.alerts');
  await app.waitFor('Alert rules');
  await app.type(`ua="${'x'.repeat(45_000)}" count>1 over 1m`);
  await app.press('prompt.apply');
  await app.waitFor(/a value is at most 1,000 characters, this one has 45,000/, 60_000);
  assert.doesNotMatch(app.screenText(), /too large|unexpected error/);
  await app.press('prompt.cancel');
  await app.waitFor(/● following/);
  await app.press('app.quit');
  await app.exited;
});
