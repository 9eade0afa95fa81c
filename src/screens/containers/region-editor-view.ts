import type { ContainerLimits, Region } from '../../api/containers';
import { columnsOver, type Column } from '../../text/table-model';
import { idList, maxRegionsText, regionColumns as regionListColumns } from '../../renderers/container-regions';
import type { FieldMessages, RegionDraft, SelectorRow } from '../../state/containers-region-draft';

/** One line of the region checklist: a region of the live list (or an id the list lacks). */
export interface RegionRow {
  id: string;
  name: string;
  group: string;
  /** null: the region is not in the live list. */
  hasCapacity: boolean | null;
  anycast: boolean | null;
  allowed: boolean;
  required: boolean;
  /** Instances running there now (the app's overview); 0 when none. */
  instances: number;
}

/** The live region list in its order, then ids the draft has that the list does not. */
export function regionRows(regions: readonly Region[] | null, draft: RegionDraft | null, instances: ReadonlyMap<string, number> = new Map()): RegionRow[] {
  const allowed = new Set(draft?.allowed ?? []);
  const required = new Set(draft?.required ?? []);
  const rows: RegionRow[] = (regions ?? []).map((r) => ({
    id: r.id,
    name: r.name ?? '',
    group: r.group ?? '',
    hasCapacity: r.hasCapacity ?? null,
    anycast: r.hasAnycastSupport ?? null,
    allowed: allowed.has(r.id),
    required: required.has(r.id),
    instances: instances.get(r.id) ?? 0,
  }));
  const listed = new Set(rows.map((r) => r.id));
  const extra = [...new Set([...(draft?.allowed ?? []), ...(draft?.required ?? []), ...instances.keys()])].filter((id) => !listed.has(id));
  for (const id of extra) {
    rows.push({
      id,
      name: '(not in the region list)',
      group: '',
      hasCapacity: null,
      anycast: null,
      allowed: allowed.has(id),
      required: required.has(id),
      instances: instances.get(id) ?? 0,
    });
  }
  return rows;
}

const mark = (on: boolean) => (on ? '[x]' : '[ ]');

/** The region as the region list has it: the editor's ID to ANYCAST cells are `burrow get regions`' columns. */
const asRegion = (r: RegionRow): Region => ({ id: r.id, name: r.name, group: r.group, hasCapacity: r.hasCapacity, hasAnycastSupport: r.anycast });

export const regionColumns: Column<RegionRow>[] = [
  {
    id: 'allowed',
    header: 'ALLOW',
    width: 5,
    cell: (r) => ({ text: mark(r.allowed), tone: r.allowed ? 'ok' : undefined }),
    sortValue: (r) => (r.allowed ? 0 : 1),
  },
  {
    id: 'required',
    header: 'REQ',
    width: 4,
    cell: (r) => ({ text: mark(r.required), tone: r.required ? (r.allowed ? 'accent' : 'error') : undefined }),
    sortValue: (r) => (r.required ? 0 : 1),
  },
  ...columnsOver(regionListColumns, asRegion),
  {
    id: 'instances',
    header: 'RUNNING',
    width: 7,
    align: 'right',
    cell: (r) => (r.instances ? { text: String(r.instances), tone: 'ok' } : ''),
    sortValue: (r) => -r.instances,
  },
];

export const selectorColumns: Column<SelectorRow>[] = [
  { id: 'key', header: 'KEY', flex: 1, cell: (s) => s.key },
  { id: 'value', header: 'VALUE', flex: 2, cell: (s) => s.value },
];

// the ids' and the maximum's text are the renderer's (`burrow get region-settings` prints them too)
export { idList };

/** "4 · account limit 10 per application" or "no limit (the account limit of 10 applies)". */
export function maxText(max: number | null, limits: ContainerLimits | null): string {
  const limit = limits?.maxNumberOfRegionsPerApplication ?? null;
  const of = limit === null ? (limits ? 'no account limit' : 'account limit not loaded') : `account limit ${limit} per application`;
  return `${maxRegionsText(max)} · ${of}`;
}

/** Client-side problems first, then what the server answered for the same field (at most `max`). */
export function messagesFor(field: keyof FieldMessages, client: FieldMessages, server: FieldMessages, max = 2): string[] {
  const out = [...(client[field] ?? []), ...(server[field] ?? []).map((m) => `${m} (server)`)];
  return out.slice(0, max);
}
