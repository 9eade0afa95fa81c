import type { Column } from '../text/table-model';

/** A key/value row, for resources that are one record shown field by field. */
export interface FieldRow {
  field: string;
  value: string;
  /** The value for machine output (`get -o csv`) where it differs from the text: numbers, ISO times, booleans. */
  raw?: string | number | boolean | null;
}

export const fieldColumns: Column<FieldRow>[] = [
  { id: 'field', header: 'FIELD', flex: 1, cell: (r) => r.field },
  { id: 'value', header: 'VALUE', flex: 2, cell: (r) => r.value, raw: (r) => (r.raw === undefined ? r.value : r.raw) },
];
