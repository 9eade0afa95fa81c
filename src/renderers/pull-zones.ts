import type { PullZone } from '../api/pull-zones';
import type { Column } from '../text/table-model';
import { yesNo } from './format';

/** Columns of the pull zone list (`burrow get pull-zones`). */
export const pullZoneColumns: Column<PullZone>[] = [
  { id: 'id', header: 'ID', width: 8, align: 'right', cell: (z) => z.Id, sortValue: (z) => z.Id },
  { id: 'name', header: 'NAME', flex: 1, cell: (z) => z.Name ?? '' },
  { id: 'origin', header: 'ORIGIN', flex: 2, cell: (z) => z.OriginUrl ?? '' },
  { id: 'enabled', header: 'ENABLED', width: 7, cell: (z) => yesNo(z.Enabled) },
  { id: 'suspended', header: 'SUSPENDED', width: 9, cell: (z) => yesNo(z.Suspended) },
  { id: 'logging', header: 'LOGGING', width: 7, cell: (z) => yesNo(z.EnableLogging) },
  {
    id: 'hostnames',
    header: 'HOSTNAMES',
    flex: 2,
    cell: (z) =>
      z.Hostnames.map((h) => h.Value)
        .filter(Boolean)
        .join(' '),
  },
];
