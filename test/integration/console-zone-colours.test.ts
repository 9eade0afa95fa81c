import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiFor, useEmulator } from '../helpers/emulator';
import { renderConsole } from '../helpers/console';
import { runCommand } from '../helpers/pty';
import { until } from '../helpers/wait';
import { resolveSettings } from '../../src/config/settings';

// stern habits in the console's merged view: each zone has its colour (the first cyan, the
// second magenta); NO_COLOR turns them off. Rendered in this process with the styles of a colour
// terminal (was a pty test); the CLI's coloured text output stays in test/e2e/zone-colours.

const emu = await useEmulator({ seed: 9, logRate: 6, ingestDelayMs: 500 });
const api = apiFor(emu);
const zone = (name: string) => emu.world.pullZones.find((z) => z.Name === name)!.Id;
const A = zone('shop-assets');
const B = zone('video-edge');
const cyan = (id: number) => new RegExp(`\\x1b\\[36m${id}\\s*\\x1b\\[39m`);
const magenta = (id: number) => new RegExp(`\\x1b\\[35m${id}\\s*\\x1b\\[39m`);

test("the console's merged view draws each zone id in its colour (none with NO_COLOR)", async () => {
  for (const noColor of [false, true]) {
    const settings = resolveSettings({}, noColor ? { NO_COLOR: '1' } : {}, {});
    const app = renderConsole(api, { cols: 120, rows: 30, styles: true, settings });
    await app.waitFor('Screens');
    await runCommand(app, `logs ${A} ${B}`);
    // rows of both zones on the screen (the ZONE column follows the time)
    const row = (id: number) => new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} ${id} `, 'm');
    await until('rows of both zones', () => row(A).test(app.screenText()) && row(B).test(app.screenText()), 30_000);
    if (noColor) {
      assert.doesNotMatch(app.rawOutput(), /\x1b\[3[1-7]m\d+ /);
      // styles stay without colours (as --no-color keeps them): the check above saw escape codes
      assert.match(app.rawOutput(), /\x1b\[7m/);
    } else {
      await until('zone A in cyan and zone B in magenta', () => cyan(A).test(app.rawOutput()) && magenta(B).test(app.rawOutput()), 10_000);
    }
    app.unmount();
  }
});
