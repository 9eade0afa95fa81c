import type { HttpClient } from './http';

/** Shield and API Guardian (`{base}/shield`). */
export class ShieldApi {
  constructor(private readonly http: HttpClient) {
    void this.http;
  }
}
