import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attentionBytes, notifyRoute, parseTmuxNotifyInfo } from '../../src/app/terminal-notify';

const BEL = '\x07';
const ESC = '\x1b';

test('the desktop notification goes only to terminals known to show it; every terminal gets the bell', () => {
  const route = (env: Record<string, string>) => notifyRoute(env, null)?.protocol ?? null;
  assert.equal(route({ TERM_PROGRAM: 'iTerm.app', TERM: 'xterm-256color' }), 'osc9');
  assert.equal(route({ TERM: 'xterm-256color', LC_TERMINAL: 'iTerm2' }), 'osc9', 'iTerm2 over ssh');
  assert.equal(route({ TERM_PROGRAM: 'WezTerm' }), 'osc777');
  assert.equal(route({ TERM_PROGRAM: 'ghostty', TERM: 'xterm-ghostty' }), 'osc777');
  assert.equal(route({ TERM: 'foot' }), 'osc777');
  assert.equal(route({ TERM: 'foot-extra' }), 'osc777');
  assert.equal(route({ TERM: 'xterm-256color', WT_SESSION: 'abc' }), 'osc777', 'Windows Terminal');
  assert.equal(route({ TERM: 'xterm-kitty' }), 'osc99');
  assert.equal(route({ TERM: 'xterm-256color', KITTY_WINDOW_ID: '1' }), 'osc99');
  for (const env of [
    { TERM: 'xterm-256color' } as Record<string, string>,
    { TERM: 'xterm' },
    { TERM: 'linux' },
    { TERM: 'dumb' },
    { TERM_PROGRAM: 'Apple_Terminal' },
    { TERM: 'alacritty' },
    {},
  ]) {
    assert.equal(route(env), null, JSON.stringify(env));
    assert.equal(attentionBytes('burrow alert', 'x', env, null), BEL, `${JSON.stringify(env)}: the bell only`);
  }
  assert.equal(route({ TERM_PROGRAM: 'WezTerm', STY: '1.pts-0' }), null, 'GNU screen in between: bell only');
});

test('the sequences, and record data in them made harmless', () => {
  assert.equal(
    attentionBytes('burrow alert', 'status=5xx rate>2/s over 60s: 3.4/s', { TERM_PROGRAM: 'iTerm.app' }, null),
    `${BEL}${ESC}]9;burrow alert: status=5xx rate>2/s over 60s: 3.4/s${BEL}`,
  );
  assert.equal(
    attentionBytes('burrow alert', 'a;b', { TERM_PROGRAM: 'WezTerm' }, null),
    `${BEL}${ESC}]777;notify;burrow alert;a,b${BEL}`,
    '; would end the field',
  );
  assert.equal(attentionBytes('t', 'b', { TERM: 'xterm-kitty' }, null), `${BEL}${ESC}]99;;t: b${ESC}\\`);
  const hostile = attentionBytes('burrow alert', `ua~evil${ESC}]52;c;AAAA${BEL}\u009b2J`, { TERM_PROGRAM: 'WezTerm' }, null);
  const inside = hostile.slice(1, -1);
  assert.equal([...inside].filter((c) => c === ESC).length, 1, "the only ESC is the sequence's own");
  assert.ok(!inside.includes(BEL) && !inside.includes('\u009b'));
  assert.match(inside, /\\x1b\]52,c,AAAA\\x07\\x9b2J$/);
  assert.ok(attentionBytes('t', 'x'.repeat(5000), { TERM_PROGRAM: 'WezTerm' }, null).length < 300, 'cut to a length terminals take');
});

test('inside tmux: wrapped in its passthrough only when tmux allows it, for the terminal tmux is attached to', () => {
  const env = { TMUX: '/tmp/tmux-1/default,1,0', TERM: 'tmux-256color', TERM_PROGRAM: 'tmux' };
  const info = (allow: string, name: string, type: string) => parseTmuxNotifyInfo(`${allow}\t${name}\t${type}\n`);
  assert.equal(
    attentionBytes('t', 'b', env, info('on', 'xterm-256color', 'WezTerm 20240203-110809')),
    `${BEL}${ESC}Ptmux;${ESC}${ESC}]777;notify;t;b${BEL}${ESC}\\`,
  );
  assert.equal(notifyRoute(env, info('1', 'xterm-kitty', ''))?.protocol, 'osc99');
  assert.equal(notifyRoute(env, info('on', 'xterm-256color', 'iTerm2 3.5.0'))?.protocol, 'osc9');
  assert.equal(attentionBytes('t', 'b', env, info('off', 'xterm-256color', 'WezTerm 20240203')), BEL, 'passthrough off (the default): bell only');
  assert.equal(attentionBytes('t', 'b', env, info('', 'xterm-256color', 'WezTerm')), BEL);
  assert.equal(attentionBytes('t', 'b', env, null), BEL, 'tmux could not be asked');
  assert.equal(attentionBytes('t', 'b', env, info('on', 'xterm-256color', '')), BEL, 'an outer terminal not known to show them');
  assert.equal(parseTmuxNotifyInfo('garbage'), null);
});
