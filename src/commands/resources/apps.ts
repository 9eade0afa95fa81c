import type { App } from '../../api/containers';
import { defineResource } from '../resource';

export const appsResource = defineResource<App>({
  name: 'apps',
  summary: 'Magic Containers applications and their status',
  async fetch(platform, _arg, signal) {
    return platform.api.containers.listAllApps(signal);
  },
  columns: [
    { header: 'ID', value: (a) => a.id },
    { header: 'NAME', value: (a) => a.name ?? '' },
    { header: 'STATUS', value: (a) => a.status ?? '' },
    { header: 'ENDPOINT', value: (a) => (a.displayEndpoint ? `${a.displayEndpoint.address ?? ''} (${a.displayEndpoint.type ?? '?'})` : '') },
    { header: 'DESCRIPTION', value: (a) => a.description ?? '' },
  ],
});
