import type { App } from '../api/containers';
import type { Column } from '../text/table-model';
import type { Tone } from '../text/tone';

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

/** Columns of the applications list: the screen's table and `burrow get apps`. */
export const appColumns: Column<App>[] = [
  { id: 'name', header: 'NAME', flex: 2, minWidth: 12, cell: (a) => a.name ?? '' },
  { id: 'id', header: 'ID', width: 15, cell: (a) => a.id },
  { id: 'status', header: 'STATUS', width: 11, cell: (a) => ({ text: a.status ?? 'unknown', tone: appStatusTone(a.status) }) },
  { id: 'endpoint', header: 'ENDPOINT', flex: 2, cell: endpointText },
  { id: 'description', header: 'DESCRIPTION', flex: 2, cell: (a) => a.description ?? '' },
];
