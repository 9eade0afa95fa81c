import type { Region } from '../../api/containers';
import { defineResource } from '../resource';
import { yesNo } from './format';

export const regionsResource = defineResource<Region>({
  name: 'regions',
  summary: 'Magic Containers regions, with capacity and anycast support',
  async fetch(platform, _arg, signal) {
    return platform.api.containers.listAllRegions(signal);
  },
  columns: [
    { header: 'ID', value: (r) => r.id },
    { header: 'NAME', value: (r) => r.name ?? '' },
    { header: 'GROUP', value: (r) => r.group ?? '' },
    { header: 'CAPACITY', value: (r) => yesNo(r.hasCapacity) },
    { header: 'ANYCAST', value: (r) => yesNo(r.hasAnycastSupport) },
  ],
});
