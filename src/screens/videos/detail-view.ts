import { DRM_VERSION, ENCODING_TIER, PULL_ZONE_TYPE, VIDEO_LIBRARY_SECRET_FIELDS, type VideoLibrary } from '../../api/video-libraries';
import { maskSecret } from '../../config/redact';
import type { Column } from '../../text/table-model';
import { formatBytes, formatCount, formatDateTime } from '../../renderers/format';

export type DetailRow = { kind: 'group'; title: string } | { kind: 'field'; group: string; name: string; value: unknown; secret: boolean };

/** Groups of the detail view, in order; each lists the fields it shows (dots reach into objects). */
export const DETAIL_GROUPS: readonly { title: string; fields: readonly string[] }[] = [
  {
    title: 'general',
    fields: [
      'Id',
      'Name',
      'VideoCount',
      'StorageUsage',
      'TrafficUsage',
      'DateCreated',
      'DateModified',
      'ReplicationRegions',
      'PullZoneId',
      'PullZoneType',
      'StorageZoneId',
      'WebhookUrl',
    ],
  },
  { title: 'keys', fields: ['ApiKey', 'ReadOnlyApiKey', 'ApiAccessKey'] },
  {
    title: 'player',
    fields: [
      'PlayerVersion',
      'UILanguage',
      'Controls',
      'PlaybackSpeeds',
      'PlayerKeyColor',
      'FontFamily',
      'CaptionsFontSize',
      'CaptionsFontColor',
      'CaptionsBackground',
      'ShowHeatmap',
      'RememberPlayerPosition',
      'EnableCompactControls',
      'AllowEarlyPlay',
      'EnableCaptionsInPlaylist',
      'EnableMultiAudioTrackSupport',
      'CustomHTML',
      'VastTagUrl',
      'ViAiPublisherId',
      'HasWatermark',
      'WatermarkPositionLeft',
      'WatermarkPositionTop',
      'WatermarkWidth',
      'WatermarkHeight',
      'WatermarkVersion',
    ],
  },
  {
    title: 'encoding',
    fields: [
      'EncodingTier',
      'EnabledResolutions',
      'OutputCodecs',
      'Bitrate240p',
      'Bitrate360p',
      'Bitrate480p',
      'Bitrate720p',
      'Bitrate1080p',
      'Bitrate1440p',
      'Bitrate2160p',
      'KeepOriginalFiles',
      'EnableMP4Fallback',
      'JitEncodingEnabled',
      'UseSeparateAudioStream',
      'RemoveMetadataFromFallbackVideos',
      'ScaleVideoUsingBothDimensions',
      'EnableContentTagging',
    ],
  },
  {
    title: 'security',
    fields: [
      'PlayerTokenAuthenticationEnabled',
      'AllowedReferrers',
      'BlockedReferrers',
      'BlockNoneReferrer',
      'AllowDirectPlay',
      'ExposeOriginals',
      'ExposeVideoMetadata',
    ],
  },
  { title: 'DRM', fields: ['EnableDRM', 'DrmVersion', 'AppleFairPlayDrm', 'GoogleWidevineDrm'] },
  {
    title: 'transcribing',
    fields: [
      'EnableTranscribing',
      'EnableTranscribingTitleGeneration',
      'EnableTranscribingDescriptionGeneration',
      'EnableTranscribingChaptersGeneration',
      'EnableTranscribingMomentsGeneration',
      'TranscribingCaptionLanguages',
    ],
  },
  {
    title: 'billing',
    fields: [
      'MonthlyChargesPremiumEncoding',
      'MonthlyChargesTranscribing',
      'MonthlyChargesEnterpriseDrm',
      'PremiumEncodingPriceOverride',
      'TranscribingPriceOverride',
      'DrmBasePriceOverride',
      'DrmCostPerLicenseOverride',
    ],
  },
];

const SECRETS = new Set<string>(VIDEO_LIBRARY_SECRET_FIELDS);
const BYTES = new Set(['StorageUsage', 'TrafficUsage']);
const DATES = /Date(Created|Modified)?$|ExpirationDate$/;
const ENUMS: Record<string, Readonly<Record<number, string>>> = { DrmVersion: DRM_VERSION, EncodingTier: ENCODING_TIER, PullZoneType: PULL_ZONE_TYPE };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every field of the record in its group; objects open into "Parent.Child" rows; unknown fields go to "other". */
export function libraryDetailRows(lib: VideoLibrary): DetailRow[] {
  const record = lib as Record<string, unknown>;
  const rows: DetailRow[] = [];
  const placed = new Set<string>();
  const push = (group: string, name: string, value: unknown) => {
    if (isObject(value)) {
      const entries = Object.entries(value);
      if (entries.length === 0) rows.push({ kind: 'field', group, name, value: {}, secret: false });
      for (const [k, v] of entries) push(group, `${name}.${k}`, v);
      return;
    }
    rows.push({ kind: 'field', group, name, value, secret: SECRETS.has(name) });
  };
  for (const g of DETAIL_GROUPS) {
    const present = g.fields.filter((f) => f in record);
    if (present.length === 0) continue;
    rows.push({ kind: 'group', title: g.title });
    for (const f of present) {
      placed.add(f);
      push(g.title, f, record[f]);
    }
  }
  const rest = Object.keys(record).filter((k) => !placed.has(k));
  if (rest.length) {
    rows.push({ kind: 'group', title: 'other' });
    for (const f of rest) push('other', f, record[f]);
  }
  return rows;
}

/** How a value reads on screen: names for enums, units for sizes, UTC dates, yes/no, lists. */
export function formatDetailValue(name: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  const leaf = name.split('.').pop()!;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.length ? value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ') : '(none)';
  if (typeof value === 'number') {
    if (BYTES.has(leaf)) return `${formatBytes(value)} (${formatCount(value)} bytes)`;
    const names = ENUMS[leaf];
    if (names) return `${names[value] ?? 'unknown'} (${value})`;
    return String(value);
  }
  if (typeof value === 'string') {
    if (DATES.test(leaf)) return formatDateTime(value);
    return value === '' ? '""' : value;
  }
  if (isObject(value)) return '{}';
  return JSON.stringify(value);
}

/** The value cell: secret fields masked unless revealed. */
export function detailValueText(row: DetailRow, revealedField: string | null): string {
  if (row.kind === 'group') return '';
  if (row.secret && typeof row.value === 'string') {
    return revealedField === row.name ? row.value : maskSecret(row.value);
  }
  return formatDetailValue(row.name, row.value);
}

export function detailColumns(revealedField: string | null): Column<DetailRow>[] {
  return [
    {
      id: 'field',
      header: 'FIELD',
      width: 34,
      sortable: false,
      cell: (r) => (r.kind === 'group' ? { text: `▸ ${r.title}`, tone: 'accent' } : `  ${r.name}`),
    },
    {
      id: 'value',
      header: 'VALUE',
      flex: 1,
      sortable: false,
      cell: (r) => {
        if (r.kind === 'group') return '';
        const text = detailValueText(r, revealedField);
        if (r.secret)
          return revealedField === r.name ? { text: `${text}  (shown for a few seconds)`, tone: 'warn' } : { text: `${text}  (masked)`, tone: 'muted' };
        return text;
      },
    },
  ];
}
