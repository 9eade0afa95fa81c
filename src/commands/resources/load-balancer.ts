import { HEALTH_STATUS, ORIGIN_TYPE, originTarget, type LbOrigin, type LbOriginGroup, type LoadBalancer } from '../../api/load-balancers';
import { enumName } from '../../api/input-checks';
import { defineResource } from '../get';
import { parseIdArg, yesNo } from './format';

export interface OriginRow {
  group: LbOriginGroup;
  origin: LbOrigin | null;
}

/** One row per origin, groups ordered by priority (lower first) then name; a group without origins gets one row. */
export function originRows(lb: LoadBalancer): OriginRow[] {
  const groups = [...lb.OriginGroups].sort((a, b) => (a.Priority ?? 100) - (b.Priority ?? 100) || String(a.Name).localeCompare(String(b.Name)));
  return groups.flatMap((group): OriginRow[] => (group.Origins.length ? group.Origins.map((origin) => ({ group, origin })) : [{ group, origin: null }]));
}

export const loadBalancerResource = defineResource<LoadBalancer, OriginRow>({
  name: 'load-balancer',
  arg: 'ID',
  summary: 'one load balancer profile: origin groups by priority and their origins',
  single: true,
  parseArg: (arg) => void parseIdArg('load balancer ID', arg),
  async fetch(session, arg, signal) {
    return [await session.api.loadBalancers.get(parseIdArg('load balancer ID', arg ?? ''), signal)];
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
