import type { HttpClient } from './http';

/** Pull zones (`{base}/pullzone`). */
export class PullZonesApi {
  constructor(private readonly http: HttpClient) {
    void this.http;
  }
}
