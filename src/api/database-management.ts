import type { HttpClient } from './http';

/** Database management (`{base}/database/v2`): databases and access tokens. */
export class DatabaseManagementApi {
  constructor(private readonly http: HttpClient) {
    void this.http;
  }
}
