import type { LoadBalancer } from '../../api/load-balancers';
import { profileColumns, profileRows, type ProfileRow } from '../../renderers/load-balancers';
import { defineResource } from '../resource';
import { parseIdArg } from './parse-id';

export const loadBalancerResource = defineResource<LoadBalancer, ProfileRow>({
  name: 'load-balancer',
  arg: 'ID',
  summary: 'one load balancer profile: origin groups by priority and their origins',
  single: true,
  parseArg: (arg) => void parseIdArg('load balancer ID', arg),
  async fetch(platform, arg, signal) {
    return [await platform.api.loadBalancers.get(parseIdArg('load balancer ID', arg ?? ''), signal)];
  },
  rows: (records) => records.flatMap(profileRows),
  columns: profileColumns,
});
