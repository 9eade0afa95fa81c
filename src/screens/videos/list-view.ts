import type { VideosState } from '../../state/videos-store';

/** "search "acme" · 100 of 420 loaded (page size 100) · scroll for more". */
export function listSummary(s: Pick<VideosState, 'items' | 'totalItems' | 'hasMore' | 'pageSize' | 'search' | 'loadingMore' | 'reloading' | 'loadedAt'>): string {
  const parts: string[] = [];
  if (s.search) parts.push(`search "${s.search}"`);
  if (s.loadedAt === null) parts.push(s.reloading || s.items.length === 0 ? 'loading…' : '');
  else {
    const total = s.totalItems ?? s.items.length;
    parts.push(s.hasMore ? `${s.items.length} of ${total} loaded` : `${total} librar${total === 1 ? 'y' : 'ies'}`);
  }
  parts.push(`page size ${s.pageSize}`);
  if (s.loadingMore) parts.push('loading more…');
  else if (s.hasMore && s.loadedAt !== null) parts.push('scroll for more');
  return parts.filter(Boolean).join(' · ');
}
