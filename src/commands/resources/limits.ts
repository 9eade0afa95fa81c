import type { ContainerLimits } from '../../api/containers';
import { limitColumns, limitRows, type LimitRow } from '../../renderers/container-limits';
import { defineResource } from '../resource';

export const limitsResource = defineResource<ContainerLimits, LimitRow>({
  name: 'limits',
  summary: 'container account limits and usage',
  single: true,
  async fetch(platform, _arg, signal) {
    return [await platform.api.containers.getLimits(signal)];
  },
  rows: (records) => records.flatMap(limitRows),
  columns: limitColumns,
});
