import type { Column } from '../../text/table-model';
import type { DatabaseRow } from '../../state/databases-store';

/** "DE + NY, SG, UK": the primary regions, then the replicas. */
export function regionsText(r: DatabaseRow): string {
  const main = r.db.primary_regions.join(', ');
  return r.db.replicas_regions.length ? `${main} + ${r.db.replicas_regions.join(', ')}` : main;
}

/** 1234567 -> "1.2M": counts read at a glance. */
export function countText(n: number | null | undefined): string {
  if (n === null || n === undefined) return '–';
  if (n < 10_000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 100_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export const databaseColumns: Column<DatabaseRow>[] = [
  { id: 'name', header: 'NAME', flex: 1, minWidth: 12, cell: (r) => r.db.name },
  { id: 'regions', header: 'REGIONS', width: 18, cell: regionsText },
  { id: 'size', header: 'SIZE', width: 10, align: 'right', cell: (r) => r.db.current_size ?? '' },
  { id: 'max', header: 'OF', width: 10, align: 'right', cell: (r) => r.db.size_max ?? '' },
  { id: 'reads', header: 'READS 30D', width: 9, align: 'right', cell: (r) => countText(r.usage?.rows_read), sortValue: (r) => r.usage?.rows_read ?? null },
  {
    id: 'writes',
    header: 'WRITES 30D',
    width: 10,
    align: 'right',
    cell: (r) => countText(r.usage?.rows_written),
    sortValue: (r) => r.usage?.rows_written ?? null,
  },
  { id: 'id', header: 'ID', width: 30, cell: (r) => r.db.id },
];
