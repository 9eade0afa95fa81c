import type { Random } from '../random';
import type { World } from '../world';

/** VideoLibraryModel: every field of the core API's record, in its order. */
export interface VideoLibrary {
  Id: number;
  Name: string;
  VideoCount: number;
  TrafficUsage: number;
  StorageUsage: number;
  DateCreated: string;
  DateModified: string;
  ReplicationRegions: string[];
  ApiKey: string;
  ReadOnlyApiKey: string;
  HasWatermark: boolean;
  WatermarkPositionLeft: number;
  WatermarkPositionTop: number;
  WatermarkWidth: number;
  PullZoneId: number;
  StorageZoneId: number;
  WatermarkHeight: number;
  EnabledResolutions: string;
  ViAiPublisherId: string | null;
  VastTagUrl: string | null;
  WebhookUrl: string | null;
  CaptionsFontSize: number;
  CaptionsFontColor: string;
  CaptionsBackground: string;
  UILanguage: string;
  AllowEarlyPlay: boolean;
  PlayerTokenAuthenticationEnabled: boolean;
  AllowedReferrers: string[];
  BlockedReferrers: string[];
  BlockNoneReferrer: boolean;
  EnableMP4Fallback: boolean;
  KeepOriginalFiles: boolean;
  AllowDirectPlay: boolean;
  EnableDRM: boolean;
  DrmVersion: number;
  AppleFairPlayDrm: DrmInfo | null;
  GoogleWidevineDrm: (DrmInfo & { SdOnlyForL3: boolean; MinClientSecurityLevel: number | null }) | null;
  Bitrate240p: number;
  Bitrate360p: number;
  Bitrate480p: number;
  Bitrate720p: number;
  Bitrate1080p: number;
  Bitrate1440p: number;
  Bitrate2160p: number;
  ApiAccessKey: string;
  ShowHeatmap: boolean;
  EnableContentTagging: boolean;
  PullZoneType: number;
  CustomHTML: string | null;
  Controls: string;
  PlaybackSpeeds: string;
  PlayerKeyColor: string;
  FontFamily: string;
  WatermarkVersion: number;
  EnableTranscribing: boolean;
  EnableTranscribingTitleGeneration: boolean;
  EnableTranscribingDescriptionGeneration: boolean;
  EnableTranscribingChaptersGeneration: boolean;
  EnableTranscribingMomentsGeneration: boolean;
  TranscribingCaptionLanguages: string[];
  EnableCaptionsInPlaylist: boolean;
  RememberPlayerPosition: boolean;
  EnableMultiAudioTrackSupport: boolean;
  UseSeparateAudioStream: boolean;
  JitEncodingEnabled: boolean;
  EncodingTier: number;
  OutputCodecs: string;
  DrmBasePriceOverride: number | null;
  DrmCostPerLicenseOverride: number | null;
  TranscribingPriceOverride: number | null;
  PremiumEncodingPriceOverride: number | null;
  MonthlyChargesTranscribing: number;
  MonthlyChargesPremiumEncoding: number;
  MonthlyChargesEnterpriseDrm: number;
  FeatureFlags: string | null;
  PlayerVersion: number;
  RemoveMetadataFromFallbackVideos: boolean;
  ScaleVideoUsingBothDimensions: boolean;
  ExposeOriginals: boolean;
  ExposeVideoMetadata: boolean;
  EnableCompactControls: boolean;
}

interface DrmInfo {
  Enabled: boolean;
  CertificateId: number | null;
  CertificateExpirationDate: string | null;
  Provider: string | null;
}

const BRANDS = [
  'acme',
  'northwind',
  'globex',
  'initech',
  'umbrella',
  'hooli',
  'stark',
  'wayne',
  'tyrell',
  'soylent',
  'vandelay',
  'pied-piper',
  'wonka',
  'cyberdyne',
  'aperture',
  'gringotts',
  'oscorp',
  'duff',
  'monarch',
  'sirius',
];
const TOPICS = [
  'tutorials',
  'product-demos',
  'webinars',
  'courses',
  'livestream-archive',
  'marketing',
  'support-videos',
  'onboarding',
  'podcasts',
  'trailers',
  'user-uploads',
  'ads',
  'training',
  'events',
  'news',
  'recipes',
  'fitness',
  'lectures',
];
const SUFFIXES = ['', '', '', ' EU', ' US', ' APAC', ' (staging)', ' 2024', ' 2025', ' HD', ' archive'];
const REGIONS = ['UK', 'SE', 'NY', 'LA', 'SG', 'SYD', 'BR', 'JH', 'HK', 'JP', 'DE', 'CZ', 'ES', 'MI', 'WA'];
const RESOLUTIONS = ['240p', '360p', '480p', '720p', '1080p', '1440p', '2160p'];
const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'sv', 'pl', 'ja', 'zh', 'ko', 'sl'];
const COLORS = ['#ff7755', '#00a3ff', '#1dd1a1', '#feca57', '#ff6b6b', '#5f27cd', '#222f3e'];
const FONTS = ['rubik', 'inter', 'roboto', 'open sans', 'lato', 'arial'];
const CONTROLS = [
  'play-large,play,progress,current-time,mute,volume,captions,settings,pip,airplay,fullscreen',
  'play-large,play,progress,current-time,duration,mute,volume,settings,fullscreen',
  'play,progress,current-time,mute,volume,captions,fullscreen',
];
const CODECS = ['x264', 'x264,vp9', 'x264,hevc', 'x264,av1', 'x264,vp9,av1'];

function uuid(r: Random): string {
  return `${r.hex(8)}-${r.hex(4)}-4${r.hex(3)}-${r.pick(['8', '9', 'a', 'b'])}${r.hex(3)}-${r.hex(12)}`;
}

function pickSome<T>(r: Random, items: readonly T[], min: number, max: number): T[] {
  const out: T[] = [];
  const n = r.int(min, Math.min(max, items.length));
  while (out.length < n) {
    const v = r.pick(items);
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

const money = (r: Random, max: number) => Math.round(r.next() * max * 100) / 100;

/** ~420 libraries, sorted by Id, every field realistic and varied. */
export function seedVideoLibraries(world: World, r: Random, count = 420): VideoLibrary[] {
  const out: VideoLibrary[] = [];
  const names = new Set<string>();
  let id = 104_000 + r.int(0, 500);
  let pullZoneId = 2_100_000 + r.int(0, 1000);
  let storageZoneId = 640_000 + r.int(0, 1000);
  for (let i = 0; i < count; i++) {
    id += r.int(1, 40);
    pullZoneId += r.int(1, 90);
    storageZoneId += r.int(1, 60);
    let name = '';
    for (let tries = 0; tries < 10 && (name === '' || names.has(name)); tries++) {
      name = `${r.pick(BRANDS)}-${r.pick(TOPICS)}${r.pick(SUFFIXES)}`;
    }
    if (names.has(name)) name = `${name} ${i}`;
    names.add(name);
    const createdDaysAgo = Math.round(5 + Math.pow(r.next(), 0.7) * 2400);
    const created = world.startedAt - createdDaysAgo * 86_400_000 - r.int(0, 86_399_000);
    const modified = created + Math.round(r.next() * (world.startedAt - created));
    const videos = r.bool(0.08) ? 0 : Math.round(Math.pow(r.next(), 3) * 25_000);
    const avgSize = r.int(20, 900) * 1024 * 1024;
    const storage = videos * avgSize;
    const traffic = r.bool(0.1) ? 0 : Math.round(storage * r.next() * r.int(1, 12));
    const drm = r.bool(0.18);
    const enterpriseDrm = drm && r.bool(0.4);
    const transcribing = r.bool(0.25);
    const premium = r.bool(0.2);
    const watermark = r.bool(0.3);
    const apiKey = uuid(r);
    const certDate = () => new Date(world.startedAt + r.int(-30, 700) * 86_400_000).toISOString();
    const resolutions = pickSome(r, RESOLUTIONS, 3, 7).sort((a, b) => parseInt(a) - parseInt(b));
    const allowedRefs = r.bool(0.35) ? pickSome(r, ['example.com', 'www.example.com', 'app.example.com', 'partner.example.org', 'localhost'], 1, 3) : [];
    out.push({
      Id: id,
      Name: name,
      VideoCount: videos,
      TrafficUsage: traffic,
      StorageUsage: storage,
      DateCreated: new Date(created).toISOString(),
      DateModified: new Date(modified).toISOString(),
      ReplicationRegions: pickSome(r, REGIONS, 0, 4),
      ApiKey: apiKey,
      ReadOnlyApiKey: uuid(r),
      HasWatermark: watermark,
      WatermarkPositionLeft: watermark ? r.int(0, 90) : 0,
      WatermarkPositionTop: watermark ? r.int(0, 90) : 0,
      WatermarkWidth: watermark ? r.int(5, 30) : 0,
      PullZoneId: pullZoneId,
      StorageZoneId: storageZoneId,
      WatermarkHeight: watermark ? r.int(5, 30) : 0,
      EnabledResolutions: resolutions.join(','),
      ViAiPublisherId: r.bool(0.05) ? `vi_${r.int(100000, 999999)}` : null,
      VastTagUrl: r.bool(0.1) ? `https://ads.example.net/vast?pub=${r.int(1000, 9999)}` : null,
      WebhookUrl: r.bool(0.4) ? `https://hooks.example.com/video/${r.alnum(8).toLowerCase()}` : null,
      CaptionsFontSize: r.pick([14, 16, 18, 20, 24]),
      CaptionsFontColor: r.pick(['#fff', '#ffffff', '#ffff00']),
      CaptionsBackground: r.pick(['#000', 'rgba(0,0,0,0.6)', '#00000080']),
      UILanguage: r.pick(LANGUAGES),
      AllowEarlyPlay: r.bool(0.3),
      PlayerTokenAuthenticationEnabled: r.bool(0.25),
      AllowedReferrers: allowedRefs,
      BlockedReferrers: r.bool(0.1) ? ['scraper.example.net'] : [],
      BlockNoneReferrer: allowedRefs.length > 0 && r.bool(0.5),
      EnableMP4Fallback: r.bool(0.5),
      KeepOriginalFiles: r.bool(0.7),
      AllowDirectPlay: r.bool(0.8),
      EnableDRM: drm,
      DrmVersion: drm ? (enterpriseDrm ? 1 : r.pick([0, 2])) : 0,
      AppleFairPlayDrm: drm
        ? {
            Enabled: enterpriseDrm,
            CertificateId: enterpriseDrm ? r.int(1000, 9999) : null,
            CertificateExpirationDate: enterpriseDrm ? certDate() : null,
            Provider: enterpriseDrm ? 'MediaCage' : null,
          }
        : null,
      GoogleWidevineDrm: drm
        ? {
            Enabled: enterpriseDrm || r.bool(0.5),
            CertificateId: enterpriseDrm ? r.int(1000, 9999) : null,
            CertificateExpirationDate: enterpriseDrm ? certDate() : null,
            Provider: enterpriseDrm ? 'MediaCage' : null,
            SdOnlyForL3: r.bool(0.5),
            MinClientSecurityLevel: enterpriseDrm ? r.int(0, 3) : null,
          }
        : null,
      Bitrate240p: 600,
      Bitrate360p: 800,
      Bitrate480p: 1400,
      Bitrate720p: r.pick([2800, 3000]),
      Bitrate1080p: r.pick([5000, 5500]),
      Bitrate1440p: 8000,
      Bitrate2160p: r.pick([13000, 15000]),
      ApiAccessKey: apiKey,
      ShowHeatmap: r.bool(0.3),
      EnableContentTagging: r.bool(0.2),
      PullZoneType: r.bool(0.7) ? 0 : 1,
      CustomHTML: r.bool(0.05) ? '<script defer src="https://analytics.example.com/p.js"></script>' : null,
      Controls: r.pick(CONTROLS),
      PlaybackSpeeds: r.pick(['0.5,0.75,1,1.25,1.5,1.75,2', '0.75,1,1.25,1.5,2', '1']),
      PlayerKeyColor: r.pick(COLORS),
      FontFamily: r.pick(FONTS),
      WatermarkVersion: watermark ? r.int(1, 6) : 0,
      EnableTranscribing: transcribing,
      EnableTranscribingTitleGeneration: transcribing && r.bool(0.5),
      EnableTranscribingDescriptionGeneration: transcribing && r.bool(0.5),
      EnableTranscribingChaptersGeneration: transcribing && r.bool(0.3),
      EnableTranscribingMomentsGeneration: transcribing && r.bool(0.2),
      TranscribingCaptionLanguages: transcribing ? pickSome(r, LANGUAGES, 1, 4) : [],
      EnableCaptionsInPlaylist: r.bool(0.4),
      RememberPlayerPosition: r.bool(0.5),
      EnableMultiAudioTrackSupport: r.bool(0.15),
      UseSeparateAudioStream: r.bool(0.1),
      JitEncodingEnabled: r.bool(0.2),
      EncodingTier: premium ? 1 : 0,
      OutputCodecs: premium ? r.pick(CODECS) : 'x264',
      DrmBasePriceOverride: enterpriseDrm && r.bool(0.3) ? money(r, 99) : null,
      DrmCostPerLicenseOverride: enterpriseDrm && r.bool(0.3) ? Math.round(r.next() * 1000) / 10000 : null,
      TranscribingPriceOverride: transcribing && r.bool(0.1) ? Math.round(r.next() * 100) / 1000 : null,
      PremiumEncodingPriceOverride: premium && r.bool(0.1) ? Math.round(r.next() * 100) / 1000 : null,
      MonthlyChargesTranscribing: transcribing ? money(r, 60) : 0,
      MonthlyChargesPremiumEncoding: premium ? money(r, 120) : 0,
      MonthlyChargesEnterpriseDrm: enterpriseDrm ? money(r, 400) : 0,
      FeatureFlags: r.bool(0.1) ? r.pick(['beta-player', 'new-encoder', 'beta-player,smart-thumbnails']) : null,
      PlayerVersion: r.pick([1, 2, 2, 2]),
      RemoveMetadataFromFallbackVideos: r.bool(0.3),
      ScaleVideoUsingBothDimensions: r.bool(0.2),
      ExposeOriginals: r.bool(0.1),
      ExposeVideoMetadata: r.bool(0.2),
      EnableCompactControls: r.bool(0.2),
    });
  }
  return out;
}
