import type { PullZone } from '../../api/pull-zones';
import { pullZoneColumns } from '../../renderers/pull-zones';
import { defineResource } from '../resource';

export const pullZonesResource = defineResource<PullZone>({
  name: 'pull-zones',
  summary: 'pull zones and whether logging is enabled',
  async fetch(platform, _arg, signal) {
    return platform.api.pullZones.list(signal);
  },
  columns: pullZoneColumns,
});
