/** Static pools the traffic generator draws from. Strings are shared between records to keep memory low. */

/** Cache status values the docs list; '-' is a request with no cache interaction (POST...). */
export const CACHE_STATUSES = ['HIT', 'MISS', 'BYPASS', 'REVALIDATED', 'STALE', 'UPDATING', '-'] as const;

/** [country, weight, edges nearby, asn, organisation] */
export const COUNTRIES: readonly (readonly [string, number, readonly string[], number, string])[] = [
  ['US', 30, ['WA', 'NY', 'LA', 'DA', 'MI'], 7922, 'Comcast Cable Communications, LLC'],
  ['DE', 12, ['DE', 'FR'], 3320, 'Deutsche Telekom AG'],
  ['GB', 8, ['UK'], 2856, 'British Telecommunications PLC'],
  ['FR', 6, ['FR', 'DE'], 3215, 'Orange S.A.'],
  ['NL', 4, ['NL', 'DE'], 1136, 'KPN B.V.'],
  ['SI', 2, ['DE', 'IT'], 5603, 'Telekom Slovenije, d.d.'],
  ['IT', 4, ['IT'], 3269, 'Telecom Italia S.p.A.'],
  ['ES', 3, ['MA', 'FR'], 3352, 'Telefonica de Espana S.A.U.'],
  ['PL', 3, ['WAR', 'DE'], 5617, 'Orange Polska Spolka Akcyjna'],
  ['BR', 5, ['BR'], 28573, 'Claro NXT Telecomunicacoes Ltda'],
  ['CA', 3, ['TO', 'NY'], 812, 'Rogers Communications Canada Inc.'],
  ['JP', 4, ['JP'], 2516, 'KDDI Corporation'],
  ['SG', 2, ['SG'], 9506, 'Singtel Fibre Broadband'],
  ['IN', 5, ['IN', 'SG'], 55836, 'Reliance Jio Infocomm Limited'],
  ['AU', 2, ['SYD'], 1221, 'Telstra Limited'],
  ['ZA', 1, ['JNB'], 37457, 'Telkom SA Ltd.'],
  ['KR', 2, ['KR', 'JP'], 4766, 'Korea Telecom'],
  ['MX', 2, ['DA', 'LA'], 8151, 'UNINET'],
  ['SE', 1, ['SE', 'DE'], 3301, 'Telia Company AB'],
  ['CH', 1, ['CH', 'DE'], 3303, 'Swisscom (Schweiz) AG'],
  ['TR', 1, ['IST'], 9121, 'Turk Telekomunikasyon Anonim Sirketi'],
  ['AR', 1, ['BR'], 7303, 'Telecom Argentina S.A.'],
  ['UA', 1, ['WAR'], 15895, 'Kyivstar PJSC'],
  ['NG', 1, ['LOS', 'JNB'], 29465, 'MTN Nigeria Communication limited'],
];

/** Data-centre networks scrapers and monitors come from. */
export const HOSTING_ASNS: readonly (readonly [number, string, string])[] = [
  [16509, 'Amazon.com, Inc.', 'US'],
  [14061, 'DigitalOcean, LLC', 'DE'],
  [24940, 'Hetzner Online GmbH', 'DE'],
  [15169, 'Google LLC', 'US'],
  [16276, 'OVH SAS', 'FR'],
];

export const BROWSER_AGENTS: readonly string[] = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36 Edg/138.0.0.0',
  'Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.7 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/27.0 Chrome/125.0.0.0 Mobile Safari/537.36',
];

export const TOOL_AGENTS: readonly string[] = [
  'curl/8.11.1',
  'Wget/1.24.5',
  'python-requests/2.32.3',
  'Go-http-client/2.0',
  'okhttp/4.12.0',
  'Googlebot/2.1 (+http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'UptimeRobot/2.0 (http://www.uptimerobot.com/)',
  'AppleCoreMedia/1.0.0.22F76 (iPhone; U; CPU OS 18_5 like Mac OS X; en_us)',
  'VLC/3.0.21 LibVLC/3.0.21',
  'Mozilla/5.0 zgrab/0.x',
];

export const REFERER_SITES: readonly string[] = [
  'https://www.google.com/',
  'https://duckduckgo.com/',
  'https://www.bing.com/',
  'https://news.ycombinator.com/',
  'https://t.co/',
  'https://www.reddit.com/',
  'android-app://com.google.android.gm/',
];

export const JA4: readonly string[] = [
  't13d1516h2_8daaf6152771_02713d6af862',
  't13d1517h2_8daaf6152771_b6f405a00624',
  't13d1715h2_5b57614c22b0_3d5424432f57',
  't13d190900_9dc949149365_97f8aa674fd9',
  't12d200700_0f2cb44170f4_c7886603b240',
];

/** Path kinds a zone serves: [template, weight, typical bytes, cacheable]. `{n}` `{h}` `{q}` are filled per request. */
export type PathKind = readonly [string, number, number, boolean];

export const ZONE_PATHS: Record<string, readonly PathKind[]> = {
  default: [
    ['/assets/app.{h}.js', 10, 180_000, true],
    ['/assets/styles.{h}.css', 8, 60_000, true],
    ['/img/products/{n}.jpg?w=640&q=80', 20, 90_000, true],
    ['/img/products/{n}.webp?w=320', 12, 30_000, true],
    ['/fonts/inter-var.woff2', 4, 110_000, true],
    ['/favicon.ico', 3, 4_000, true],
    ['/robots.txt', 1, 120, true],
    ['/index.html', 5, 24_000, false],
    ['/search?q={q}&page={p}', 4, 18_000, false],
    ['/api/cart?session={h}', 3, 1_200, false],
  ],
  'video-edge': [
    ['/video/{n}/playlist.m3u8', 6, 900, false],
    ['/video/{n}/1080p/seg-{p}.ts', 30, 2_400_000, true],
    ['/video/{n}/720p/seg-{p}.ts', 20, 1_300_000, true],
    ['/video/{n}/thumbnail.jpg?v={p}', 6, 40_000, true],
    ['/video/{n}/captions/en.vtt', 2, 12_000, true],
  ],
  'api-gateway': [
    ['/v1/orders?page={p}&limit=50', 14, 22_000, false],
    ['/v1/orders/{n}', 12, 2_400, false],
    ['/v1/products?category={q}', 10, 48_000, true],
    ['/v1/users/me', 8, 900, false],
    ['/v1/search?q={q}', 6, 15_000, false],
    ['/health', 4, 40, false],
    ['/graphql?op={q}', 5, 6_000, false],
  ],
  'docs-site': [
    ['/docs/getting-started', 10, 35_000, true],
    ['/docs/api/{q}', 12, 52_000, true],
    ['/docs/search?q={q}', 4, 9_000, false],
    ['/static/docs.{h}.js', 6, 240_000, true],
  ],
};

/** What scanners probe for: these end in 404/403. */
export const PROBE_PATHS: readonly string[] = [
  '/wp-login.php',
  '/.env',
  '/admin/config.php',
  '/.git/config',
  '/phpmyadmin/index.php',
  '/xmlrpc.php',
  '/cgi-bin/luci;stok=/locale',
];

export const SEARCH_TERMS: readonly string[] = [
  'shoes',
  'rate+limit',
  'caching',
  'sale',
  'gift%20card',
  'installation',
  'token',
  'webhooks',
  'red+dress',
  'laptop',
  'edge',
  'tls',
];
