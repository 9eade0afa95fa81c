import type { BenchResult } from './lib/report';
import { startupBench } from './startup';
import { logEngineBench } from './log-engine';

export interface Bench {
  id: string;
  run(): Promise<BenchResult[]>;
}

/** Every benchmark; each lives in its own file in bench/. */
export const benches: Bench[] = [startupBench, logEngineBench];
