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

/** "DE UK FR (3)" or "none": region ids as the region editor and `burrow get region-settings` show them. */
export function idList(ids: readonly string[]): string {
  return ids.length === 0 ? 'none' : `${ids.join(' ')} (${ids.length})`;
}

/** The most regions an application may be allowed: a number, or "not set". */
export function maxRegionsText(max: number | null): string {
  return max === null ? 'not set' : String(max);
}

/** The region settings field by field; CSV keeps the ids comma-separated. */
export function regionSettingsRows(s: RegionSettings): FieldRow[] {
  return [
    { field: 'allowed regions', value: idList(s.allowedRegionIds), raw: s.allowedRegionIds.join(', ') },
    { field: 'required regions', value: idList(s.requiredRegionIds), raw: s.requiredRegionIds.join(', ') },
    { field: 'max allowed regions', value: maxRegionsText(s.maxAllowedRegions), raw: s.maxAllowedRegions },
    { field: 'provisioning', value: s.provisioningType ?? '' },
  ];
}
