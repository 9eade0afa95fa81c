/** Edit distance (insert, delete, change, swap of two neighbours) between two short words. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]!.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]!.push(d);
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The known word a typo most likely meant ("lgos" -> "logs"), or null when none is close:
 * at most one edit for short words, two from five letters on; a prefix of one word counts too.
 */
export function didYouMean(typed: string, known: readonly string[]): string | null {
  const word = typed.toLowerCase();
  if (!word) return null;
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(word, k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  const allowed = word.length >= 5 ? 2 : 1;
  if (best !== null && bestDistance <= allowed) return best;
  const prefixed = known.filter((k) => word.length >= 3 && k.toLowerCase().startsWith(word));
  return prefixed.length === 1 ? prefixed[0]! : null;
}
