import type { PullZone } from '../../api/pull-zones';
import { defineResource } from '../resource';
import { yesNo } from './format';

export const pullZonesResource = defineResource<PullZone>({
  name: 'pull-zones',
  summary: 'pull zones and whether logging is enabled',
  async fetch(platform, _arg, signal) {
    return platform.api.pullZones.list(signal);
  },
  columns: [
    { header: 'ID', value: (z) => z.Id },
    { header: 'NAME', value: (z) => z.Name ?? '' },
    { header: 'ORIGIN', value: (z) => z.OriginUrl ?? '' },
    { header: 'ENABLED', value: (z) => yesNo(z.Enabled) },
    { header: 'SUSPENDED', value: (z) => yesNo(z.Suspended) },
    { header: 'LOGGING', value: (z) => yesNo(z.EnableLogging) },
    { header: 'HOSTNAMES', value: (z) => z.Hostnames.map((h) => h.Value).filter(Boolean).join(' ') },
  ],
});
