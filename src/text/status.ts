import { formatAge } from './fit';

export type StatusLevel = 'info' | 'warn' | 'error';

export interface StatusMessage {
  text: string;
  level: StatusLevel;
  at: number;
  /** Hidden after this long; null = until the next message. */
  ttlMs: number | null;
  /**
   * What the message is about, when its cause can end before it does (clearStatus(cause) then
   * removes it); 'console' messages (start-up warnings) also stay when the screen changes.
   */
  cause?: string;
}

/** The last request of the visible screen's data: what the status bar shows. */
export interface RequestStatus {
  lastSuccessAt: number | null;
  lastError: string | null;
  lastErrorAt: number | null;
  paused: boolean;
}

/** The age text: "refreshed 3s ago", with "paused" in front while live refresh is paused. */
export function ageText(request: RequestStatus, now: number): string {
  const parts: string[] = [];
  if (request.paused) parts.push('paused');
  if (request.lastSuccessAt !== null) parts.push(`refreshed ${formatAge(now - request.lastSuccessAt)}`);
  return parts.join(' · ');
}
