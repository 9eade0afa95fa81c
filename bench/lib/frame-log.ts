import fs from 'node:fs';

/** One line of a BURROW_FRAME_LOG file (see src/app/frame-log.ts). */
export interface FrameEvent {
  kind: 'key' | 'render' | 'write' | 'mem';
  /** High-resolution epoch ms. */
  t: number;
  /** key: the bytes read; render: build ms; write: bytes. */
  value: string;
}

export function readFrameLog(file: string): FrameEvent[] {
  const events: FrameEvent[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const [kind, t, value] = line.split('\t');
    if ((kind === 'key' || kind === 'render' || kind === 'write' || kind === 'mem') && t !== undefined) events.push({ kind, t: Number(t), value: value ?? '' });
  }
  return events;
}

export interface KeyFrame {
  key: string;
  /** When Ink read the key. */
  keyAt: number;
  /** When the first frame after it was built (Ink's onRender; the frame is written right after). */
  frameAt: number;
  /** Ink's time to build that frame. */
  buildMs: number;
}

/**
 * For each key read after `since`: the first frame built after it. A key followed
 * by another key before any frame is left out (it is counted in `unanswered`).
 */
export function keyFrames(events: FrameEvent[], since = 0): { frames: KeyFrame[]; unanswered: number } {
  const frames: KeyFrame[] = [];
  let unanswered = 0;
  let pending: FrameEvent | null = null;
  for (const e of events) {
    if (e.t < since) continue;
    if (e.kind === 'key') {
      if (pending) unanswered++;
      pending = e;
    } else if (e.kind === 'render' && pending) {
      // Ink builds the frame, notes it, and writes it at once (nothing when it is unchanged)
      frames.push({ key: JSON.parse(pending.value) as string, keyAt: pending.t, frameAt: e.t, buildMs: Number(e.value) });
      pending = null;
    }
  }
  if (pending) unanswered++;
  return { frames, unanswered };
}
