import type { LogFilter } from '../src/api/logs/index';

/** The filter of the engine benchmark, and the same filter for jq. */
export const ENGINE_FILTER: LogFilter = { status: '5xx,404' };
export const JQ_FILTER = 'select((.statusCode >= 500 and .statusCode <= 599) or .statusCode == 404)';
