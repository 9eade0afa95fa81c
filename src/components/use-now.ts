import { useEffect, useState } from 'react';

/** The current time, updated every `everyMs` while mounted (for "refreshed 3s ago"). */
export function useNow(everyMs = 1000, now: () => number = Date.now): number {
  const [t, setT] = useState(now);
  useEffect(() => {
    const h = setInterval(() => setT(now()), everyMs);
    return () => clearInterval(h);
  }, [everyMs, now]);
  return t;
}
