import type { HttpClient } from './http';
import { lazySchema, type Infer } from './lazy-schema';

const UsageSchema = lazySchema((z) => z.object({ rows_read: z.number(), rows_written: z.number(), avg_latency_ms: z.number() }));
export type DatabaseUsage = Infer<typeof UsageSchema>;

const rfc3339 = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString().replace(/\.000Z$/, 'Z');

/** A database's aggregated usage (`GET /database/v2/databases/{id}/usage?from&to`). */
export class DatabaseUsageApi {
  constructor(private readonly http: HttpClient) {}

  async usage(id: string, from: Date, to: Date, signal?: AbortSignal): Promise<DatabaseUsage> {
    return this.http.getJson(`/database/v2/databases/${encodeURIComponent(id)}/usage`, UsageSchema, {
      query: { from: rfc3339(from), to: rfc3339(to) },
      signal,
    });
  }
}
