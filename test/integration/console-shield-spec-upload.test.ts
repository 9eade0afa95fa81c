import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';

// The spec panel of the shield screen, rendered in this process against the emulator (was a pty
// test): a bad path, an unparsable file, an over-limit spec (the measured-vs-allowed table), then
// a good upload.

const emu = await useEmulator({ seed: 13 });
const api = apiFor(emu);
const zones = (await api.shield.listZones(1, 50)).zones;
let target: (typeof zones)[number] | null = null;
for (const z of zones.filter((x) => x.planType !== 0)) if ((await api.shield.getApiGuardian(z.shieldZoneId)).configuration.title === null) target = z;
assert.ok(target, 'the seed has a paid zone without a spec');
const zoneId = target.shieldZoneId;
const RED = '\x1b[31m';

test('spec panel: clear file errors, the over-limit table in red, then upload (POST) round-trips', async () => {
  const limits = (await api.shield.getApiGuardian(zoneId)).configuration;
  const app = renderConsole(api, { cols: 110, rows: 32, styles: true });
  await app.waitFor('Screens');
  await runCommand(app, 'shield');
  await app.waitFor(/page 1 of 1/);
  await app.press('nav.top', ...Array<string>(zones.indexOf(target!)).fill('nav.down'), 'list.open');
  await app.waitFor(/Specification\s+none uploaded/);

  // a path that is not there
  await app.press('shield.spec');
  await app.waitFor('enter checks the file against this zone');
  await app.type('test/fixtures/nope.yaml');
  await app.press('prompt.apply');
  await app.waitFor(`✖ no such file: ${path.resolve('test/fixtures/nope.yaml')}`);

  // o edits the path again; ctrl-u clears it; an unparsable file
  await app.press('shield.spec', 'ctrl-u');
  await app.type('test/fixtures/openapi-broken.yaml');
  await app.press('prompt.apply');
  await app.waitFor(/✖ test\/fixtures\/openapi-broken\.yaml is not a usable OpenAPI 3 document: neither JSON nor valid YAML/);

  // an over-limit spec: the table, the OVER row in red, and c refuses to send it
  await app.press('shield.spec', 'ctrl-u');
  await app.type('test/fixtures/openapi-recursive.json');
  await app.press('prompt.apply');
  const table = await app.waitFor(/nesting depth\s+unbounded\s+\d+\s+OVER/);
  assert.match(table, /^Org chart 2024-05 · JSON · \d+ bytes/m);
  assert.match(table, new RegExp(`^endpoints\\s+1\\s+${limits.maxEndpoints}\\s+ok`, 'm'));
  assert.match(table, new RegExp(`^fields per schema\\s+3\\s+${limits.maxFieldsPerType}\\s+ok\\s+components\\.schemas\\.Team`, 'm'));
  assert.match(table, /over a limit \(nesting depth\): the zone would refuse it/);
  assert.match(app.rawOutput(), new RegExp(`${RED.replace('[', '\\[')}nesting depth\\s+unbounded`), 'the over-limit row is red');
  assert.doesNotMatch(app.rawOutput(), new RegExp(`${RED.replace('[', '\\[')}endpoints\\s+1\\s`), 'rows within the limit are not');
  await app.press('shield.send');
  await app.waitFor(/not sent: the spec is over the plan limits \(nesting depth\)/);
  assert.equal((await api.shield.getApiGuardian(zoneId)).configuration.title, null, 'nothing was uploaded');

  // a good spec: c shows what will be sent, y uploads it
  await app.press('shield.spec', 'ctrl-u');
  await app.type('test/fixtures/openapi-petstore.yaml');
  await app.press('prompt.apply');
  await app.waitFor('within the plan limits: c to upload it (POST)');
  // the refusal was about the other file: it does not stay on the status line
  assert.doesNotMatch(app.screenText(), /not sent: the spec is over the plan limits/);
  await app.press('shield.send');
  const confirm = await app.waitFor('What will be sent:');
  assert.match(confirm, new RegExp(`Upload an OpenAPI spec to shield zone ${zoneId} \\(POST …/api-guardian/spec\\)`));
  assert.match(confirm, /\+ content: "<openapi-petstore\.yaml, [\d.]+ KiB: Petstore 1\.2\.0, 5 endpoints>"/);
  await app.press('confirm.yes');
  const done = await app.waitFor('spec uploaded: Petstore 1.2.0, 5 endpoints');
  assert.match(done, /Specification\s+Petstore 1\.2\.0 · 5 endpoints/);
  assert.match(done, /GET\s+\/pets\/\{petId\}/, 'the endpoints table shows the new endpoints');
  const g = await api.shield.getApiGuardian(zoneId);
  assert.deepEqual([g.configuration.title, g.configuration.version, g.endpoints.length], ['Petstore', '1.2.0', 5]);

  // the panel closed after the upload: esc goes back to the zones
  await app.press('app.back');
  await app.waitFor(/Shield zones/);
  await app.press('app.quit');
  await app.exited;
});
