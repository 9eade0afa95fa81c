import type { Column } from '../text/table-model';

/** A key/value row, for resources that are one record shown field by field. */
export interface FieldRow {
  field: string;
  value: string;
}

export const fieldColumns: Column<FieldRow>[] = [
  { id: 'field', header: 'FIELD', flex: 1, cell: (r) => r.field },
  { id: 'value', header: 'VALUE', flex: 2, cell: (r) => r.value },
];
