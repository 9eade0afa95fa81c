/** Summary statistics for repeated measurements. */
export interface Summary {
  n: number;
  median: number;
  min: number;
  max: number;
  p95: number;
  /** (max - min) / median, as a fraction */
  spread: number;
}

export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  return {
    n: sorted.length,
    median,
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    p95: quantile(sorted, 0.95),
    spread: median ? (sorted[sorted.length - 1]! - sorted[0]!) / median : 0,
  };
}
