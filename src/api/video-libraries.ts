import type { HttpClient } from './http';

/** Video libraries (`{base}/videolibrary`). */
export class VideoLibrariesApi {
  constructor(private readonly http: HttpClient) {
    void this.http;
  }
}
