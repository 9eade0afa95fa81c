import type { VideoLibrary } from '../../api/video-libraries';
import { defineResource } from '../resource';
import { day, humanBytes } from './format';
import { drmLabel } from './rows';

export const videoLibrariesResource = defineResource<VideoLibrary>({
  name: 'video-libraries',
  summary: 'every video library, or --search TEXT --page N --per-page N (keys masked unless --show-secrets)',
  searchable: true,
  async fetch(session, _arg, signal, query) {
    if (query.page === null && query.perPage === null) return session.api.videoLibraries.listAll(query.search, signal);
    const page = await session.api.videoLibraries.listPage(query.page ?? 1, query.perPage ?? 100, query.search, signal);
    return page.items;
  },
  columns: [
    { header: 'ID', value: (l) => l.Id },
    { header: 'NAME', value: (l) => l.Name ?? '' },
    { header: 'VIDEOS', value: (l) => l.VideoCount ?? '' },
    { header: 'STORAGE', value: (l) => humanBytes(l.StorageUsage) },
    { header: 'TRAFFIC', value: (l) => humanBytes(l.TrafficUsage) },
    { header: 'CREATED', value: (l) => day(l.DateCreated) },
    { header: 'REGIONS', value: (l) => (l.ReplicationRegions ?? []).join(' ') },
    { header: 'DRM', value: drmLabel },
  ],
});
