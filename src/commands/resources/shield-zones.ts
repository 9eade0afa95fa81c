import { DDOS_SENSITIVITY, SHIELD_PLAN_TYPE, WAF_EXECUTION_MODE, type ShieldZone } from '../../api/shield';
import { enumName } from '../../api/input-checks';
import { defineResource } from '../resource';
import { yesNo } from './format';

export const shieldZonesResource = defineResource<ShieldZone>({
  name: 'shield-zones',
  summary: 'shield zones with plan, WAF and DDoS settings',
  async fetch(platform, _arg, signal) {
    return platform.api.shield.listAllZones(signal);
  },
  columns: [
    { header: 'ID', value: (z) => z.shieldZoneId },
    { header: 'PULL ZONE', value: (z) => z.pullZoneId ?? '' },
    { header: 'PLAN', value: (z) => enumName(SHIELD_PLAN_TYPE, z.planType) },
    { header: 'WAF', value: (z) => yesNo(z.wafEnabled) },
    { header: 'WAF MODE', value: (z) => enumName(WAF_EXECUTION_MODE, z.wafExecutionMode) },
    { header: 'DDOS', value: (z) => enumName(DDOS_SENSITIVITY, z.dDoSShieldSensitivity) },
    { header: 'LEARNING', value: (z) => yesNo(z.learningMode) },
  ],
});
