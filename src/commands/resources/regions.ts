import type { Region } from '../../api/containers';
import { regionColumns } from '../../renderers/container-regions';
import { defineResource } from '../resource';

export const regionsResource = defineResource<Region>({
  name: 'regions',
  summary: 'Magic Containers regions, with capacity and anycast support',
  async fetch(platform, _arg, signal) {
    return platform.api.containers.listAllRegions(signal);
  },
  columns: regionColumns,
});
