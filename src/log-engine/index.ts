import type { LogsApi } from '../api/logs/index';
import type { LogBuffer } from './buffer';
import { FollowEngine, type FollowOptions, type FollowSink } from './follow';

export { LogBuffer, DEFAULT_BUFFER_CAPACITY } from './buffer';
export { FollowEngine, type BackfillProgress, type FollowOptions, type FollowSink, type FollowStatus, type ZoneFollowStatus } from './follow';
export { OrderedRelease } from './release';
export { mergeByTime, type TimedRecords } from './merge';
export { LogPageReader, type PageReaderOptions } from './page-reader';

/** A follow engine on one or more zones, sharing the client's budget, clock and randomness. Call start(). */
export function followLogs<S extends FollowSink = LogBuffer>(api: LogsApi, options: Omit<FollowOptions<S>, 'api'>): FollowEngine<S> {
  return new FollowEngine<S>({ now: api.now, random: api.random, ...options, api });
}
