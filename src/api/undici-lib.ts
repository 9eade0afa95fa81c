/**
 * The four parts of undici the clients use, each from its own file: undici's index also loads
 * fetch, WebSocket, EventSource, cookies, caches, interceptors and mocks, more than twice the
 * code to evaluate before the first request (measured in docs/BENCHMARKS.md). Loaded with the
 * first request (http.ts), never at start-up.
 */
import type { Dispatcher } from 'undici';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import requestOn from 'undici/lib/api/api-request.js';
import errorsOfUndici from 'undici/lib/core/errors.js';
import buildConnectorOfUndici from 'undici/lib/core/connect.js';

export const Agent = AgentClass;
export const errors = errorsOfUndici;
export const buildConnector = buildConnectorOfUndici;

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> &
  Partial<Pick<Dispatcher.RequestOptions, 'method'>> & { dispatcher: Dispatcher };

/** undici's `request(url, options)` on the given dispatcher, as its index makes it. */
export function request(url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  const target = new URL(url);
  return requestOn.call(dispatcher, {
    ...rest,
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    method: options.method ?? (options.body ? 'PUT' : 'GET'),
  });
}
