import type { VideoLibrary } from '../../api/video-libraries';
import { libraryColumns } from '../../renderers/video-libraries';
import { defineResource } from '../resource';

export const videoLibrariesResource = defineResource<VideoLibrary>({
  name: 'video-libraries',
  screen: 'videos',
  summary: 'every video library, or --search TEXT --page N --per-page N (keys masked unless --show-secrets)',
  searchable: true,
  async fetch(platform, _arg, signal, query) {
    if (query.page === null && query.perPage === null) return platform.api.videoLibraries.listAll(query.search, signal);
    const page = await platform.api.videoLibraries.listPage(query.page ?? 1, query.perPage ?? 100, query.search, signal);
    return page.items;
  },
  columns: libraryColumns,
});
