import type { ShieldZone } from '../../api/shield';
import { zoneColumns } from '../../renderers/shield-zones';
import { defineResource } from '../resource';

export const shieldZonesResource = defineResource<ShieldZone>({
  name: 'shield-zones',
  screen: 'shield',
  summary: 'shield zones with plan, WAF and DDoS settings',
  async fetch(platform, _arg, signal) {
    return platform.api.shield.listAllZones(signal);
  },
  columns: zoneColumns,
});
