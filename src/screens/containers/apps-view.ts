import type { App } from '../../api/containers';
import type { Column } from '../../text/table-model';
import type { Tone } from '../../components/theme';
import type { AppsList } from '../../state/containers-store';

/** Colour of an application status: active green, progressing yellow, failing/suspended red. */
export function appStatusTone(status: string | null | undefined): Tone {
  switch (status) {
    case 'active':
      return 'ok';
    case 'progressing':
      return 'warn';
    case 'failing':
    case 'suspended':
      return 'error';
    default:
      return 'muted';
  }
}

/** "mc-abc.b-cdn.net (cdn)"; empty when the API sent no endpoint. */
export function endpointText(app: App): string {
  const e = app.displayEndpoint;
  if (!e?.address) return '';
  return e.type ? `${e.address} (${e.type})` : e.address;
}

export const appColumns: Column<App>[] = [
  { id: 'name', header: 'NAME', flex: 2, minWidth: 12, cell: (a) => a.name ?? '' },
  { id: 'id', header: 'ID', width: 15, cell: (a) => a.id },
  { id: 'status', header: 'STATUS', width: 11, cell: (a) => ({ text: a.status ?? 'unknown', tone: appStatusTone(a.status) }) },
  { id: 'endpoint', header: 'ENDPOINT', flex: 2, cell: endpointText },
  { id: 'description', header: 'DESCRIPTION', flex: 2, cell: (a) => a.description ?? '' },
];

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
