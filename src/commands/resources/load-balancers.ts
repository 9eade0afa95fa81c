import { LB_STICKY_SESSION_TYPE, ORIGIN_GROUP_LB_METHOD, type LoadBalancer } from '../../api/load-balancers';
import { enumName } from '../../api/input-checks';
import { defineResource } from '../resource';
import { healthySummary } from './rows';

export const loadBalancersResource = defineResource<LoadBalancer>({
  name: 'load-balancers',
  summary: 'load balancer profiles with method, sticky sessions and origin health',
  async fetch(platform, _arg, signal) {
    return platform.api.loadBalancers.listAll(signal);
  },
  columns: [
    { header: 'ID', value: (l) => l.LoadBalancerId },
    { header: 'NAME', value: (l) => l.Name ?? '' },
    { header: 'METHOD', value: (l) => enumName(ORIGIN_GROUP_LB_METHOD, l.OriginGroupLoadBalancingMethod) },
    { header: 'STICKY', value: (l) => enumName(LB_STICKY_SESSION_TYPE, l.StickySessionType) },
    { header: 'GROUPS', value: (l) => l.OriginGroups.length },
    { header: 'HEALTHY', value: healthySummary },
  ],
});
