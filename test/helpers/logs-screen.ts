import { runCommand, type KeyTarget } from './pty';

/**
 * Opens the logs screen on a zone from the home screen (`:logs ID`) and waits until it follows;
 * `ready` says what else to wait for (the first page's records: /newest of [\d,]+/).
 */
export async function openZone(app: KeyTarget, zoneId: number, ready: RegExp = /● following/, timeoutMs?: number): Promise<string> {
  await app.waitFor('Screens');
  await runCommand(app, `logs ${zoneId}`);
  return app.waitFor(ready, timeoutMs);
}
