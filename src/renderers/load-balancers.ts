import {
  HEALTH_STATUS,
  LB_STICKY_SESSION_TYPE,
  ORIGIN_GROUP_LB_METHOD,
  ORIGIN_LB_METHOD,
  ORIGIN_TYPE,
  type LbOrigin,
  type LbOriginGroup,
  type LoadBalancer,
} from '../api/load-balancers';
import type { Cell, Column } from '../text/table-model';
import { terminalSafe } from '../text/terminal-safe';
import type { Tone } from '../text/tone';
import { enumName } from './format';

export const methodName = (lb: LoadBalancer) => enumName(ORIGIN_GROUP_LB_METHOD, lb.OriginGroupLoadBalancingMethod);
export const stickyName = (lb: LoadBalancer) => enumName(LB_STICKY_SESSION_TYPE, lb.StickySessionType);

/** Origin groups by Priority, lower first (the order the platform tries them); ties keep the API order. */
export function groupsByPriority(lb: LoadBalancer): LbOriginGroup[] {
  return lb.OriginGroups.map((g, i) => ({ g, i }))
    .sort((a, b) => (a.g.Priority ?? Number.MAX_SAFE_INTEGER) - (b.g.Priority ?? Number.MAX_SAFE_INTEGER) || a.i - b.i)
    .map((x) => x.g);
}

export interface HealthCount {
  healthy: number;
  degraded: number;
  unknown: number;
  total: number;
}

export function healthCount(origins: readonly LbOrigin[]): HealthCount {
  const c: HealthCount = { healthy: 0, degraded: 0, unknown: 0, total: origins.length };
  for (const o of origins) {
    if (o.HealthStatus === 0) c.healthy++;
    else if (o.HealthStatus === 1) c.degraded++;
    else c.unknown++;
  }
  return c;
}

/** "5/6 healthy" coloured: all healthy green, some degraded yellow, none healthy red. */
export function healthCell(c: HealthCount): { text: string; tone: Tone } {
  if (c.total === 0) return { text: 'no origins', tone: 'muted' };
  const text = `${c.healthy}/${c.total} healthy`;
  if (c.healthy === c.total) return { text, tone: 'ok' };
  return { text, tone: c.healthy === 0 ? 'error' : 'warn' };
}

export const allOrigins = (lb: LoadBalancer): LbOrigin[] => lb.OriginGroups.flatMap((g) => g.Origins);

/** Columns of the load balancer list: the screen's table and `burrow get load-balancers`. */
export const lbColumns: Column<LoadBalancer>[] = [
  { id: 'name', header: 'NAME', flex: 1, minWidth: 10, cell: (l) => l.Name ?? '' },
  { id: 'id', header: 'ID', width: 6, align: 'right', cell: (l) => String(l.LoadBalancerId), sortValue: (l) => l.LoadBalancerId },
  { id: 'method', header: 'METHOD', width: 20, cell: methodName },
  { id: 'sticky', header: 'STICKY', width: 6, cell: stickyName },
  { id: 'groups', header: 'GROUPS', width: 6, align: 'right', cell: (l) => String(l.OriginGroups.length), sortValue: (l) => l.OriginGroups.length },
  { id: 'origins', header: 'ORIGINS', width: 7, align: 'right', cell: (l) => String(allOrigins(l).length), sortValue: (l) => allOrigins(l).length },
  {
    id: 'health',
    header: 'HEALTH',
    width: 13,
    cell: (l) => healthCell(healthCount(allOrigins(l))),
    sortValue: (l) => {
      const c = healthCount(allOrigins(l));
      return c.total ? c.healthy / c.total : null;
    },
  },
];

/** Where an origin sends traffic, by its type. */
export function originTarget(o: LbOrigin): string {
  switch (o.OriginType) {
    case 0: {
      const s = o.StandardOrigin;
      if (!s) return '(no standard origin settings)';
      const parts = [s.OriginUrl || '(no URL)'];
      if (s.HostHeader) parts.push(`host header ${s.HostHeader}`);
      if (s.VerifySsl === false) parts.push('TLS not verified');
      return parts.join(' · ');
    }
    case 1:
      return `storage zone ${o.StorageZoneId ?? '?'}`;
    case 2:
      return `edge script ${o.EdgeScriptId ?? '?'}`;
    case 3:
      return `app ${o.MagicContainersOrigin?.AppId ?? '?'} · endpoint ${o.MagicContainersOrigin?.EndPointId ?? '?'}`;
    default:
      return o.OriginType === null || o.OriginType === undefined ? '' : `origin type ${o.OriginType}`;
  }
}

const coord = (n: number | null | undefined) => (n === null || n === undefined ? '?' : String(Math.round(n * 10_000) / 10_000));

/** "lat 50.1109, long 8.6821 · health check /health · origins RoundRobin". */
export function groupDetail(g: LbOriginGroup): string {
  const hc = g.HealthCheckSettings;
  const check = !hc ? 'no health check settings' : hc.Enabled ? `health check ${hc.Path || '/'}` : `health check off${hc.Path ? ` (${hc.Path})` : ''}`;
  const method = enumName(ORIGIN_LB_METHOD, g.OriginLoadBalancingMethod);
  return [`lat ${coord(g.Latitude)}, long ${coord(g.Longitude)}`, check, method ? `origins ${method}` : ''].filter(Boolean).join(' · ');
}

/** A line of the profile table: an origin group, then its origins. */
export type ProfileRow = { kind: 'group'; group: LbOriginGroup } | { kind: 'origin'; group: LbOriginGroup; origin: LbOrigin };

export function profileRows(lb: LoadBalancer): ProfileRow[] {
  return groupsByPriority(lb).flatMap((group) => [
    { kind: 'group' as const, group },
    ...group.Origins.map((origin) => ({ kind: 'origin' as const, group, origin })),
  ]);
}

const enabledCell = (v: boolean | null | undefined): Cell => (v === false ? { text: 'no', tone: 'muted' } : v ? 'yes' : '');

export function originHealthCell(o: LbOrigin): Cell {
  const name = enumName(HEALTH_STATUS, o.HealthStatus);
  if (o.HealthStatus === 0) return { text: name, tone: 'ok' };
  if (o.HealthStatus === 1) return { text: name, tone: 'warn' };
  return name;
}

/** Columns of one profile (groups, then their origins): the screen's table and `burrow get load-balancer ID`. */
export const profileColumns: Column<ProfileRow>[] = [
  {
    id: 'item',
    header: 'GROUP / ORIGIN',
    width: 16,
    sortable: false,
    cell: (r) => (r.kind === 'group' ? { text: `▸ ${r.group.Name ?? r.group.Id}`, tone: 'accent' } : `  ${enumName(ORIGIN_TYPE, r.origin.OriginType)}`),
  },
  { id: 'priority', header: 'PRIO', width: 4, align: 'right', sortable: false, cell: (r) => (r.kind === 'group' ? String(r.group.Priority ?? '') : '') },
  {
    id: 'weight',
    header: 'WEIGHT',
    width: 6,
    align: 'right',
    sortable: false,
    cell: (r) => String((r.kind === 'group' ? r.group.Weight : r.origin.Weight) ?? ''),
  },
  { id: 'enabled', header: 'ON', width: 3, sortable: false, cell: (r) => enabledCell(r.kind === 'group' ? r.group.Enabled : r.origin.Enabled) },
  {
    id: 'health',
    header: 'HEALTH',
    width: 11,
    sortable: false,
    cell: (r) => (r.kind === 'group' ? healthCell(healthCount(r.group.Origins)) : originHealthCell(r.origin)),
  },
  {
    id: 'detail',
    header: 'LOCATION · CHECK / TARGET',
    flex: 1,
    sortable: false,
    cell: (r) => (r.kind === 'group' ? groupDetail(r.group) : originTarget(r.origin)),
  },
];

/** "method WeightedRandom · sticky sessions Cookie · 3 groups · 9 origins". */
export function profileSummary(lb: LoadBalancer): string {
  const origins = allOrigins(lb).length;
  return [
    `method ${terminalSafe(methodName(lb)) || '?'}`,
    `sticky sessions ${terminalSafe(stickyName(lb)) || '?'}`,
    `${lb.OriginGroups.length} group${lb.OriginGroups.length === 1 ? '' : 's'}`,
    `${origins} origin${origins === 1 ? '' : 's'}`,
  ].join(' · ');
}
