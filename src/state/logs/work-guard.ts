import type { UiStore } from '../ui-store';
import type { AlertsStore } from './alerts';

const PENDING_ID = 'logs:work';

/**
 * Marks and alert rules live only as long as the console: while there are any, quitting asks
 * first (they are listed in the quit question, as other pending work is).
 */
export function guardLogsWork(ui: UiStore, marks: () => number, alerts: AlertsStore): () => void {
  let last: string | null = null;
  const sync = () => {
    const parts: string[] = [];
    const m = marks();
    const rules = alerts.getState().rules.length;
    if (m > 0) parts.push(`${m} mark${m === 1 ? '' : 's'}`);
    if (rules > 0) parts.push(`${rules} alert rule${rules === 1 ? '' : 's'}`);
    const text = parts.length ? `${parts.join(' and ')} on the logs screen` : null;
    if (text === last) return;
    last = text;
    ui.getState().setPending(PENDING_ID, text);
  };
  return sync;
}
