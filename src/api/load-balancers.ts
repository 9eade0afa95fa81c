import type { HttpClient } from './http';

/** Load balancer profiles (`{base}/loadbalancer`). */
export class LoadBalancersApi {
  constructor(private readonly http: HttpClient) {
    void this.http;
  }
}
