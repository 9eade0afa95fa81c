import type { Region, RegionSettings } from '../api/containers';
import type { Cell, Column } from '../text/table-model';
import type { FieldRow } from './field-rows';

/** Free capacity: "yes", "none" (warn), or "?" when the region list does not say. */
export function capacityCell(hasCapacity: boolean | null | undefined): Cell {
  if (hasCapacity === null || hasCapacity === undefined) return '?';
  return hasCapacity ? { text: 'yes', tone: 'ok' } : { text: 'none', tone: 'warn' };
}

/** Anycast support: "yes", "no", or "?" when the region list does not say. */
export function anycastText(anycast: boolean | null | undefined): string {
  return anycast === null || anycast === undefined ? '?' : anycast ? 'yes' : 'no';
}

/** Columns of the region list: `burrow get regions`; the region editor shows the same cells next to its checkboxes. */
export const regionColumns: Column<Region>[] = [
  { id: 'id', header: 'ID', width: 4, cell: (r) => r.id },
  { id: 'name', header: 'NAME', flex: 2, cell: (r) => r.name ?? '' },
  { id: 'group', header: 'GROUP', flex: 2, cell: (r) => r.group ?? '' },
  { id: 'capacity', header: 'CAPACITY', width: 8, cell: (r) => capacityCell(r.hasCapacity) },
  { id: 'anycast', header: 'ANYCAST', width: 7, cell: (r) => anycastText(r.hasAnycastSupport) },
];

export function regionSettingsRows(s: RegionSettings): FieldRow[] {
  return [
    { field: 'allowed regions', value: s.allowedRegionIds.join(', ') },
    { field: 'required regions', value: s.requiredRegionIds.join(', ') },
    { field: 'max allowed regions', value: s.maxAllowedRegions === null ? 'no maximum' : String(s.maxAllowedRegions), raw: s.maxAllowedRegions },
    { field: 'provisioning', value: s.provisioningType ?? '' },
  ];
}
