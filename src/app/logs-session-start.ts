import type { LogsSessions } from '../state/logs/session-file';
import type { UiStore } from '../state/ui-store';

/** At the start: the logs screen open at the last quit comes back (with its setup: see LogsSessions). */
export function reopenLogs(ui: UiStore, sessions: LogsSessions): void {
  if (sessions.open !== null) ui.getState().navigate('logs', sessions.open);
}

/** At a quit: the logs screen on the stack, or the one a `:` on top replaced (esc would go back to it), opens on the next start. */
export function rememberOpenLogs(ui: UiStore, sessions: LogsSessions): void {
  const visits = ui.getState().stack.flatMap((s) => (s.previous ? [s.previous, s] : [s]));
  const logs = visits.findLast((s) => s.id === 'logs' && s.arg !== null);
  sessions.setOpen(logs?.arg ?? null);
}
