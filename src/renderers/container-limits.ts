import type { ContainerLimits } from '../api/containers';
import type { Column } from '../text/table-model';

/** One limit as the gauges and the table show it. `used` is null where the API reports no usage. */
export interface LimitRow {
  key: keyof ContainerLimits;
  label: string;
  used: number | null;
  max: number | null;
  unit: string;
}

export function limitRows(l: ContainerLimits): LimitRow[] {
  return [
    { key: 'maxNumberOfApplications', label: 'applications', used: l.existingNumberOfApplications, max: l.maxNumberOfApplications, unit: '' },
    { key: 'maxNumberOfRegionsPerApplication', label: 'regions per application', used: null, max: l.maxNumberOfRegionsPerApplication, unit: '' },
    { key: 'maxNumberOfInstancesPerRegion', label: 'instances per region', used: null, max: l.maxNumberOfInstancesPerRegion, unit: '' },
    { key: 'maxNumberOfInstancesPerApplication', label: 'instances per application', used: null, max: l.maxNumberOfInstancesPerApplication, unit: '' },
    { key: 'maxNumberOfVolumesPerApplication', label: 'volumes per application', used: null, max: l.maxNumberOfVolumesPerApplication, unit: '' },
    { key: 'maxVolumeSize', label: 'volume size', used: null, max: l.maxVolumeSize, unit: '' },
  ];
}

/** Columns of the limits table (`burrow get limits`); the screen draws the same rows as gauges. */
export const limitColumns: Column<LimitRow>[] = [
  { id: 'limit', header: 'LIMIT', flex: 2, cell: (r) => r.label },
  { id: 'used', header: 'USED', width: 6, align: 'right', cell: (r) => r.used ?? '', raw: (r) => r.used },
  { id: 'max', header: 'MAX', width: 9, align: 'right', cell: (r) => r.max ?? 'unlimited', raw: (r) => r.max },
];
