import type { LogFilter } from '../src/api/logs/index';

/** The filter of the engine benchmark, and the same filter for jq. */
export const ENGINE_FILTER: LogFilter = { status: '5xx,404' };
export const JQ_FILTER = 'select((.statusCode >= 500 and .statusCode <= 599) or .statusCode == 404)';
/** The same filter as lnav SQL over the records read with bench/lnav/burrow_cdn_log.json. */
export const LNAV_QUERY = ';SELECT count(*) AS n FROM burrow_cdn_log WHERE (statusCode >= 500 AND statusCode <= 599) OR statusCode = 404';
