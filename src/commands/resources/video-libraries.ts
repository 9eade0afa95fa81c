import type { VideoLibrary } from '../../api/video-libraries';
import { libraryColumns } from '../../renderers/video-libraries';
import { defineResource } from '../resource';

export const videoLibrariesResource = defineResource<VideoLibrary>({
  name: 'video-libraries',
  summary: 'every video library (keys masked unless --show-secrets)',
  async fetch(platform, _arg, signal) {
    return platform.api.videoLibraries.listAll(null, signal);
  },
  columns: libraryColumns,
});
