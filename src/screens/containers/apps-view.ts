import type { AppsList } from '../../state/containers-store';

/** "15 applications", "50 of 120 loaded · more load as you scroll", "loading…". */
export function appsSummary(apps: AppsList): string {
  if (apps.loadedAt === null) return apps.error ? '' : 'loading applications…';
  const n = apps.items.length;
  const total = apps.totalItems;
  if (apps.cursor === null) return `${n} application${n === 1 ? '' : 's'}`;
  const more = apps.loading ? 'loading more…' : 'more load as you scroll';
  return `${n}${total !== null ? ` of ${total}` : ''} loaded · ${more}`;
}

/** True when the selected application is close enough to the end to load the next page. */
export function nearEnd(index: number, loaded: number, margin = 5): boolean {
  return index >= 0 && index >= loaded - margin;
}
