import { type ShieldPageInfo, type ShieldZone, DDOS_SENSITIVITY, SHIELD_PLAN_TYPE, WAF_EXECUTION_MODE, WAF_PAYLOAD_LIMIT_ACTION } from '../api/shield';
import type { Column } from '../text/table-model';
import { enumName } from './format';

/** "until 2025-03-04" for a zone in learning mode, "no" otherwise. */
export function learningText(z: Pick<ShieldZone, 'learningMode' | 'learningModeUntil'>): string {
  if (!z.learningMode) return z.learningMode === false ? 'no' : '';
  return z.learningModeUntil ? `until ${z.learningModeUntil.slice(0, 10)}` : 'yes';
}

/** Columns of the shield zones list: the screen's table and `burrow get shield-zones`. */
export const zoneColumns: Column<ShieldZone>[] = [
  { id: 'id', header: 'ZONE', width: 7, align: 'right', cell: (z) => z.shieldZoneId, sortValue: (z) => z.shieldZoneId },
  { id: 'pz', header: 'PULL ZONE', width: 9, align: 'right', cell: (z) => z.pullZoneId ?? '', sortValue: (z) => z.pullZoneId ?? null },
  {
    id: 'plan',
    header: 'PLAN',
    width: 10,
    // API Guardian needs Advanced or higher: Basic is shown muted
    cell: (z) => ({ text: enumName(SHIELD_PLAN_TYPE, z.planType), tone: z.planType === 0 ? 'muted' : undefined }),
    sortValue: (z) => z.planType ?? null,
  },
  {
    id: 'waf',
    header: 'WAF',
    width: 4,
    cell: (z) => (z.wafEnabled === null || z.wafEnabled === undefined ? '' : { text: z.wafEnabled ? 'on' : 'off', tone: z.wafEnabled ? 'ok' : 'warn' }),
  },
  { id: 'mode', header: 'MODE', width: 5, cell: (z) => enumName(WAF_EXECUTION_MODE, z.wafExecutionMode) },
  { id: 'body', header: 'BODY LIMIT', width: 10, cell: (z) => enumName(WAF_PAYLOAD_LIMIT_ACTION, z.wafRequestBodyLimitAction) },
  { id: 'ddos', header: 'DDOS', width: 9, cell: (z) => enumName(DDOS_SENSITIVITY, z.dDoSShieldSensitivity) },
  { id: 'learning', header: 'LEARNING', flex: 1, cell: (z) => learningText(z) },
];

/** "page 2 of 3 · 25 zones" from the page envelope. */
export function pageText(info: ShieldPageInfo | null): string {
  if (!info) return '';
  const pages = Math.max(1, info.totalPages);
  return `page ${info.currentPage} of ${pages} · ${info.totalCount} zone${info.totalCount === 1 ? '' : 's'}`;
}
