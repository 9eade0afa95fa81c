import { createStore, type StoreApi } from 'zustand/vanilla';
import type { LogEntry } from '../../api/logs/entry';
import { emptyText, type TextState } from '../../keys/text-edit';
import { AlertSet, type AlertEvent } from '../../log-records/alert-eval';
import { formatDuration, parseAlertRule, ruleErrorLine, type RuleError } from '../../log-records/alert-rule';
import type { UiStore } from '../ui-store';

/**
 * The alert rules of the logs screen (`A`): the rules (log-records/alert-eval.ts counts and
 * decides), the notices not acknowledged yet (the banner) and the rules panel. A firing rule
 * calls for the user's attention (bell and desktop notification: ui.callAttention, written by
 * app/); a notice stays until acknowledged; a clearing replaces the rule's notice by a "cleared"
 * one, with how long it lasted.
 */

export interface AlertRuleView {
  text: string;
  firing: boolean;
  firedAt: number | null;
  observed: string | null;
  lastCleared: { at: number; durationMs: number } | null;
}

export interface AlertNotice {
  id: number;
  kind: 'fired' | 'cleared';
  rule: string;
  observed: string;
  /** Record time the rule fired or cleared at. */
  at: number;
  durationMs: number;
}

export interface AlertPanel {
  text: TextState;
  error: string | null;
  /** The bad part of the rule typed, to underline. */
  errorAt: RuleError | null;
  selected: number;
}

export interface AlertsState {
  rules: AlertRuleView[];
  notices: AlertNotice[];
  panel: AlertPanel | null;

  openPanel(): void;
  closePanel(): void;
  setText(text: TextState): void;
  /** Adds the rule typed; false (and the error shown) when it does not parse. */
  submit(): boolean;
  select(delta: number): void;
  /** Removes the selected rule; false when there is none. */
  removeSelected(): boolean;
  /** Clears the banner; false when there was nothing to acknowledge. */
  acknowledge(): boolean;
}

export type AlertsStore = StoreApi<AlertsState>;

export interface AlertsSlice {
  store: AlertsStore;
  /** A batch of records stored (the screen's records): built only when a rule is there to count them. */
  records(entries: () => readonly LogEntry[], times: ArrayLike<number>): void;
  /** The store starts over (a new query): counts start over, firing rules stay firing. */
  resetCounts(): void;
  /** Moves the windows to the clock; fires and clears. Cheap: call it every frame. */
  evaluate(): void;
}

export interface AlertsDeps {
  ui: UiStore;
  /** The end of the alert windows: the time before which the records are complete; null while unknown. */
  windowEnd: () => number | null;
  /** The records held from time `from` on (oldest first; the newest ones when there are very many), for a new rule to start from. */
  history?: (from: number) => { entries: readonly LogEntry[]; times: ArrayLike<number> };
}

export function createAlertsSlice(deps: AlertsDeps): AlertsSlice {
  const set = new AlertSet(deps.windowEnd);
  let noticeId = 0;

  const views = (): AlertRuleView[] =>
    set.status().map((s) => ({ text: s.rule.text, firing: s.firing, firedAt: s.firedAt, observed: s.observed, lastCleared: s.lastCleared }));

  const store = createStore<AlertsState>()((setState, get) => ({
    rules: [],
    notices: [],
    panel: null,

    openPanel() {
      setState({ panel: { text: emptyText, error: null, errorAt: null, selected: Math.max(0, get().rules.length - 1) } });
    },
    closePanel() {
      setState({ panel: null });
    },
    setText(text) {
      const p = get().panel;
      if (p) setState({ panel: { ...p, text, error: null, errorAt: null } });
    },
    submit() {
      const p = get().panel;
      if (!p) return false;
      const text = p.text.value;
      if (text.trim() === '') {
        setState({ panel: null });
        return true;
      }
      const parsed = parseAlertRule(text);
      if (!parsed.ok) {
        setState({ panel: { ...p, error: ruleErrorLine(text, parsed.error), errorAt: parsed.error } });
        return false;
      }
      if (set.rules.some((r) => r.text === parsed.rule.text)) {
        setState({ panel: { ...p, error: 'that rule is already in the list', errorAt: null } });
        return false;
      }
      const end = deps.windowEnd();
      set.add(parsed.rule, deps.history?.(end === null ? Number.NEGATIVE_INFINITY : end - parsed.rule.windowMs));
      const rules = views();
      setState({ rules, panel: { text: emptyText, error: null, errorAt: null, selected: rules.length - 1 } });
      deps.ui.getState().setStatus(`alert rule added: ${parsed.rule.text}`, 'info', 4000);
      return true;
    },
    select(delta) {
      const p = get().panel;
      const n = get().rules.length;
      if (!p || n === 0) return;
      setState({ panel: { ...p, selected: Math.max(0, Math.min(n - 1, p.selected + delta)) } });
    },
    removeSelected() {
      const p = get().panel;
      if (!p) return false;
      const gone = set.remove(p.selected);
      if (!gone) return false;
      const rules = views();
      setState({
        rules,
        notices: get().notices.filter((n) => n.rule !== gone.text),
        panel: { ...p, selected: Math.max(0, Math.min(rules.length - 1, p.selected)) },
      });
      deps.ui.getState().setStatus(`alert rule removed: ${gone.text}`, 'info', 4000);
      return true;
    },
    acknowledge() {
      if (get().notices.length === 0) return false;
      setState({ notices: [] });
      return true;
    },
  }));
  // the rules live only as long as the console: quitting asks while there are any
  store.subscribe((s, prev) => {
    if (s.rules.length === prev.rules.length) return;
    const n = s.rules.length;
    deps.ui.getState().setPending('logs:alerts', n ? `${n} alert rule${n === 1 ? '' : 's'} on the logs screen` : null);
  });

  function announce(events: AlertEvent[]): void {
    let notices = store.getState().notices;
    for (const e of events) {
      noticeId++;
      // one notice per rule: a clearing replaces the firing it ends (acknowledged or not)
      notices = [
        ...notices.filter((n) => n.rule !== e.rule.text),
        { id: noticeId, kind: e.kind, rule: e.rule.text, observed: e.observed, at: e.at, durationMs: e.durationMs },
      ];
      if (e.kind === 'fired') {
        deps.ui.getState().callAttention('burrow alert', `${e.rule.text}: ${e.observed}`);
      }
    }
    store.setState({ notices, rules: views() });
  }

  let lastShown = '';
  return {
    store,
    records: (entries, times) => {
      if (set.rules.length > 0) set.records(entries(), times);
    },
    resetCounts: () => set.resetCounts(),
    evaluate() {
      if (set.rules.length === 0) return;
      const events = set.evaluate();
      if (events.length) {
        announce(events);
        return;
      }
      // the observed values move with every frame: publish them only when they changed
      const rules = views();
      const key = rules.map((r) => `${r.observed}|${r.firing}`).join(',');
      if (key !== lastShown) {
        lastShown = key;
        store.setState({ rules });
      }
    },
  };
}

/** A notice as the banner line says it. */
export function noticeText(n: AlertNotice, time: (ms: number) => string): string {
  return n.kind === 'fired'
    ? `ALERT ${n.rule} — ${n.observed} at ${time(n.at)}`
    : `cleared ${n.rule} at ${time(n.at)} after ${formatDuration(n.durationMs)} (now ${n.observed})`;
}
