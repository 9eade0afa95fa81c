import { DRM_VERSION, type VideoLibrary } from '../api/video-libraries';
import type { Column } from '../text/table-model';
import { formatBytes, formatCount, formatDay, isoUtc } from './format';

/** "off", or the DRM version by name with the enabled systems: "Enterprise (FairPlay, Widevine)". */
export function drmText(l: VideoLibrary): string {
  if (!l.EnableDRM) return 'off';
  const version = l.DrmVersion === null || l.DrmVersion === undefined ? 'on' : (DRM_VERSION[l.DrmVersion] ?? `version ${l.DrmVersion}`);
  const systems = [l.AppleFairPlayDrm?.Enabled ? 'FairPlay' : null, l.GoogleWidevineDrm?.Enabled ? 'Widevine' : null].filter(Boolean);
  return systems.length ? `${version} (${systems.join(', ')})` : version;
}

const time = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(t) ? null : t;
};

/** Columns of the library list (the screen's table and `burrow get video-libraries`); numbers sort as numbers, dates as times. */
export const libraryColumns: Column<VideoLibrary>[] = [
  { id: 'name', header: 'NAME', flex: 3, minWidth: 10, cell: (l) => l.Name ?? '' },
  { id: 'id', header: 'ID', width: 7, align: 'right', cell: (l) => String(l.Id), sortValue: (l) => l.Id },
  {
    id: 'videos',
    header: 'VIDEOS',
    width: 7,
    align: 'right',
    cell: (l) => formatCount(l.VideoCount),
    raw: (l) => l.VideoCount ?? null,
    sortValue: (l) => l.VideoCount ?? null,
  },
  {
    id: 'storage',
    header: 'STORAGE',
    width: 9,
    align: 'right',
    cell: (l) => formatBytes(l.StorageUsage),
    raw: (l) => l.StorageUsage ?? null,
    sortValue: (l) => l.StorageUsage ?? null,
  },
  {
    id: 'traffic',
    header: 'TRAFFIC',
    width: 9,
    align: 'right',
    cell: (l) => formatBytes(l.TrafficUsage),
    raw: (l) => l.TrafficUsage ?? null,
    sortValue: (l) => l.TrafficUsage ?? null,
  },
  {
    id: 'created',
    header: 'CREATED',
    width: 10,
    cell: (l) => formatDay(l.DateCreated),
    raw: (l) => isoUtc(l.DateCreated),
    sortValue: (l) => time(l.DateCreated),
  },
  { id: 'regions', header: 'REGIONS', flex: 2, cell: (l) => (l.ReplicationRegions ?? []).join(' '), sortValue: (l) => (l.ReplicationRegions ?? []).length },
  { id: 'drm', header: 'DRM', width: 10, cell: (l) => (l.EnableDRM ? { text: drmText(l), tone: 'accent' } : { text: 'off', tone: 'muted' }) },
];
