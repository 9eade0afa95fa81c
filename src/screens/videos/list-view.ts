import type { VideosState } from '../../state/videos-store';

/**
 * "search "acme" · 100 of 420 loaded (page size 100) · scroll for more". With a sort (`sortedBy`,
 * the column's header) it says what the sort covers: the whole set once loaded, else exactly which part.
 */
export function listSummary(
  s: Pick<VideosState, 'items' | 'totalItems' | 'hasMore' | 'pageSize' | 'search' | 'loadingMore' | 'loadingAll' | 'reloading' | 'loadedAt'>,
  sortedBy: string | null = null,
): string {
  const parts: string[] = [];
  if (s.search) parts.push(`search "${s.search}"`);
  if (s.loadedAt === null) parts.push(s.reloading || s.items.length === 0 ? 'loading…' : '');
  else {
    const total = s.totalItems ?? s.items.length;
    if (sortedBy && s.loadingAll) parts.push(`sorting by ${sortedBy} needs all ${total}: loading them…`);
    else if (sortedBy && s.hasMore) parts.push(`sorted by ${sortedBy}: only the ${s.items.length} loaded of ${total} (search to narrow)`);
    else parts.push(s.hasMore ? `${s.items.length} of ${total} loaded` : `${total} librar${total === 1 ? 'y' : 'ies'}`);
  }
  parts.push(`page size ${s.pageSize}`);
  if (s.loadingMore) parts.push('loading more…');
  else if (s.hasMore && s.loadedAt !== null && !(sortedBy && s.loadingAll)) parts.push('scroll for more');
  return parts.filter(Boolean).join(' · ');
}
