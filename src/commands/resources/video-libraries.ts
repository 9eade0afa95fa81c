import type { VideoLibrary } from '../../api/video-libraries';
import { defineResource } from '../resource';
import { day, humanBytes } from './format';
import { drmLabel } from './rows';

export const videoLibrariesResource = defineResource<VideoLibrary>({
  name: 'video-libraries',
  summary: 'every video library (keys masked unless --show-secrets)',
  async fetch(platform, _arg, signal) {
    return platform.api.videoLibraries.listAll(null, signal);
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
