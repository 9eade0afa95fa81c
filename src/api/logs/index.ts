import type { HttpClient } from '../http';

/** Logging API (`{logging}`): v2 JSON, v1 pipe-delimited, the follow engine and the per-zone rate budget. */
export class LogsApi {
  constructor(private readonly http: HttpClient) {
    void this.http;
  }
}
