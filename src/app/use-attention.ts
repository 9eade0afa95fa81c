import { useEffect } from 'react';
import { useStdout } from 'ink';
import type { UiStore } from '../state/ui-store';
import { attentionBytes, readTmuxNotifyInfo } from './terminal-notify';

/**
 * Writes the bell and the desktop notification for each call for attention in the ui store
 * (ui.callAttention). The bytes move no cursor and print nothing, so they can go out between
 * frames. tmux is asked at each call (a few ms, and calls are rare), so a change of its options
 * takes effect without restarting burrow.
 */
export function useAttention(ui: UiStore, env: Record<string, string | undefined> = process.env): void {
  const { stdout } = useStdout();
  useEffect(
    () =>
      ui.subscribe((s, prev) => {
        const a = s.attention;
        if (!a || a === prev.attention) return;
        stdout.write(attentionBytes(a.title, a.body, env, readTmuxNotifyInfo(env)));
      }),
    [ui, stdout, env],
  );
}
