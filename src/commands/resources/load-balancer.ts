import { HEALTH_STATUS, ORIGIN_TYPE, originTarget, type LoadBalancer } from '../../api/load-balancers';
import { enumName } from '../../api/input-checks';
import { defineResource } from '../resource';
import { parseIdArg, yesNo } from './format';
import { originRows, type OriginRow } from './rows';

export const loadBalancerResource = defineResource<LoadBalancer, OriginRow>({
  name: 'load-balancer',
  arg: 'ID',
  summary: 'one load balancer profile: origin groups by priority and their origins',
  single: true,
  parseArg: (arg) => void parseIdArg('load balancer ID', arg),
  async fetch(platform, arg, signal) {
    return [await platform.api.loadBalancers.get(parseIdArg('load balancer ID', arg ?? ''), signal)];
  },
  rows: (records) => records.flatMap(originRows),
  columns: [
    { header: 'GROUP', value: (r) => `${r.group.Name ?? r.group.Id}${r.group.Enabled === false ? ' (off)' : ''}` },
    { header: 'PRIO', value: (r) => r.group.Priority ?? '' },
    { header: 'G.WEIGHT', value: (r) => r.group.Weight ?? '' },
    { header: 'HEALTH CHECK', value: (r) => (r.group.HealthCheckSettings?.Enabled ? r.group.HealthCheckSettings.Path ?? '/' : 'off') },
    { header: 'ORIGIN', value: (r) => r.origin?.Id ?? '' },
    { header: 'TYPE', value: (r) => (r.origin ? enumName(ORIGIN_TYPE, r.origin.OriginType) : '') },
    { header: 'TARGET', value: (r) => (r.origin ? originTarget(r.origin) : '') },
    { header: 'WEIGHT', value: (r) => r.origin?.Weight ?? '' },
    { header: 'ENABLED', value: (r) => yesNo(r.origin?.Enabled) },
    { header: 'HEALTH', value: (r) => (r.origin ? enumName(HEALTH_STATUS, r.origin.HealthStatus) : '') },
  ],
});
