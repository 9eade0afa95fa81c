import type { DiffLine } from '../text/diff';

/** What the confirm dialog asks: a mutation's diff, quitting, or a question. */
export interface ConfirmRequest {
  kind: 'mutation' | 'quit' | 'question';
  title: string;
  /** What will be sent, field by field; empty for questions. */
  lines: DiffLine[];
  /** Extra explanation under the title. */
  detail?: string;
  yesLabel?: string;
  onYes: () => void | Promise<void>;
  onNo?: () => void;
}

/**
 * "Discard the changes?", asked with the same words when leaving a screen with edits not sent
 * yet (state/unsent-guard.ts) and when quitting with any (the ui store); `then` runs on yes.
 */
export function discardQuestion(unsent: readonly string[], leaving: 'back' | 'quit', then: () => void): ConfirmRequest {
  return {
    // 'quit' so a second ctrl-c still quits at once
    kind: leaving === 'quit' ? 'quit' : 'question',
    title: 'Discard the changes?',
    detail: `${unsent.join('; ')}. Nothing was sent: ${leaving === 'quit' ? 'quitting' : 'leaving'} without sending loses the edits.`,
    lines: [],
    yesLabel: leaving === 'quit' ? 'discard and quit' : 'discard',
    onYes: then,
  };
}
