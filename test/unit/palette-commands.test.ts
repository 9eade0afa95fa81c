import { test } from 'node:test';
import assert from 'node:assert/strict';
import { complete, paletteCommands, parseCommand, suggest } from '../../src/app/palette';
import { SCREENS } from '../../src/app/screens';

const commands = paletteCommands(SCREENS);
const names = (text: string) => suggest(commands, text).map((s) => s.matched);

test("the palette knows the issue's commands and aliases", () => {
  const expected: Record<string, string> = {
    shield: 'shield',
    zones: 'shield',
    waf: 'shield',
    containers: 'containers',
    mc: 'containers',
    apps: 'containers',
    videos: 'videos',
    libraries: 'videos',
    vl: 'videos',
    lb: 'lb',
    loadbalancers: 'lb',
    logs: 'logs',
    sql: 'sql',
    help: 'help',
    q: 'q',
    quit: 'q',
  };
  for (const [typed, name] of Object.entries(expected)) {
    const r = parseCommand(commands, typed);
    assert.ok(r.ok, `:${typed} parses`);
    assert.equal(r.command.name, name, `:${typed} is :${name}`);
  }
});

test('suggestions: prefixes of names and aliases, exact match first', () => {
  assert.deepEqual(names('cont'), ['containers']);
  assert.deepEqual(names('l'), ['lb', 'logs', 'libraries'], 'one suggestion per command');
  assert.deepEqual(names('lo'), ['logs', 'loadbalancers']);
  assert.deepEqual(names('qu'), ['quit']);
  assert.deepEqual(names(':sq'), ['sql'], 'a typed leading colon is ignored');
  assert.deepEqual(names('logs 12'), ['logs'], 'while typing an argument only the exact command remains');
  assert.deepEqual(names('xyz'), []);
});

test('tab completion', () => {
  assert.equal(complete(commands, 'cont'), 'containers');
  assert.equal(complete(commands, 'lo'), 'lo', 'two candidates with no longer common prefix: unchanged');
  assert.equal(complete(commands, 'loa'), 'loadbalancers');
  assert.equal(complete(commands, 'log'), 'logs ', 'a command with an argument gets a space');
  assert.equal(complete(commands, 'vi'), 'videos');
  assert.equal(complete(commands, 'l', 1), 'logs ', 'the suggestion chosen with the arrows');
  assert.equal(complete(commands, 'libr'), 'libraries', 'an alias completes to itself');
  const viaAlias = parseCommand(commands, complete(commands, 'libr'));
  assert.ok(viaAlias.ok && viaAlias.command.name === 'videos');
  assert.equal(complete(commands, 'logs 1'), 'logs 1', 'arguments are not completed');
});

test('enter: unique prefixes run, ambiguous and unknown ones say what is possible', () => {
  const byPrefix = parseCommand(commands, 'cont');
  assert.ok(byPrefix.ok && byPrefix.command.name === 'containers');
  const ambiguous = parseCommand(commands, 'lo');
  assert.ok(!ambiguous.ok);
  assert.match(ambiguous.message, /":lo" could be :logs, :loadbalancers/);
  const unknown = parseCommand(commands, 'frobnicate');
  assert.ok(!unknown.ok);
  assert.match(unknown.message, /^unknown command ":frobnicate" \(commands: :home :shield :containers :videos :lb :logs :sql :databases :help :q\)$/);
  const empty = parseCommand(commands, '  ');
  assert.ok(!empty.ok);
  assert.match(empty.message, /type a command/);
});

test('arguments are checked against the command', () => {
  const logs = parseCommand(commands, 'logs 1234');
  assert.ok(logs.ok);
  assert.equal(logs.arg, '1234');
  const bare = parseCommand(commands, 'logs');
  assert.ok(bare.ok && bare.arg === null, 'the pull zone is optional');
  const bad = parseCommand(commands, 'logs abc');
  assert.ok(!bad.ok);
  assert.match(bad.message, /pull zone ids are numbers, got "abc"/);
  const extra = parseCommand(commands, 'shield 5');
  assert.ok(!extra.ok);
  assert.match(extra.message, /:shield takes no argument \(got "5"\)/);
});
