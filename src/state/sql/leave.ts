import { type SessionStatus, StreamLostError } from '../../api/database/index';
import { errorMessage } from '../domain-stores';
import type { SqlContext } from './context';
import type { LeaveThen, SqlState } from './types';

const TX_PENDING = 'sql:transaction';

export interface LeaveGuard {
  actions: Pick<SqlState, 'leave' | 'answerLeave' | 'interruptLeave'>;
  /** Follows the session's transaction: while one is open, quitting the console asks first. */
  onStatus(s: SessionStatus): void;
  /** The console no longer needs to ask about this shell's transaction. */
  release(): void;
}

/** Leaving the shell (or quitting) with a transaction open asks: commit, roll back or stay. */
export function createLeaveGuard(ctx: SqlContext): LeaveGuard {
  const { get, set, message } = ctx;
  const ui = ctx.deps.ui;
  let txOpen = false;
  const pendingText = () => `an open SQL transaction on ${get().label} (quitting rolls it back)`;

  const leaveNow = (then: LeaveThen) => {
    set({ leavePrompt: null });
    if (then === 'quit') ui.getState().requestQuit();
    else if (!ui.getState().back()) ui.getState().requestQuit();
  };

  const actions: LeaveGuard['actions'] = {
    leave(then) {
      if (get().status?.transaction) {
        set({ leavePrompt: { then } });
        return;
      }
      leaveNow(then);
    },

    async answerLeave(choice) {
      const p = get().leavePrompt;
      if (!p) return;
      set({ leavePrompt: null });
      if (choice === 'stay') return;
      const db = ctx.db;
      if (!db) return leaveNow(p.then);
      try {
        set({ running: { since: ctx.deps.now(), what: choice === 'commit' ? 'COMMIT' : 'ROLLBACK' } });
        await (choice === 'commit' ? db.commit() : db.rollback());
        message('ok', choice === 'commit' ? 'committed' : 'rolled back');
      } catch (error) {
        if (!(error instanceof StreamLostError)) {
          message('error', `${choice === 'commit' ? 'COMMIT' : 'ROLLBACK'} failed: ${errorMessage(error)}; the transaction is still open`);
          return;
        }
        message('error', error.message);
      } finally {
        set({ running: null });
      }
      leaveNow(p.then);
    },

    interruptLeave() {
      // ctrl-c cancels: the question goes, the shell and its transaction stay
      if (get().leavePrompt) message('info', 'stayed: the transaction is still open');
      set({ leavePrompt: null });
    },
  };

  return {
    actions,
    onStatus(s) {
      if (Boolean(s.transaction) === txOpen) return;
      txOpen = Boolean(s.transaction);
      ui.getState().setPending(TX_PENDING, txOpen ? pendingText() : null);
    },
    release() {
      ui.getState().setPending(TX_PENDING, null);
    },
  };
}
