import type { App } from '../../api/containers';
import { appColumns } from '../../renderers/container-apps';
import { defineResource } from '../resource';

export const appsResource = defineResource<App>({
  name: 'apps',
  screen: 'containers',
  summary: 'Magic Containers applications and their status',
  async fetch(platform, _arg, signal) {
    return platform.api.containers.listAllApps(signal);
  },
  columns: appColumns,
});
