import type { LoadBalancer } from '../../api/load-balancers';
import { lbColumns } from '../../renderers/load-balancers';
import { defineResource } from '../resource';

export const loadBalancersResource = defineResource<LoadBalancer>({
  name: 'load-balancers',
  screen: 'lb',
  summary: 'load balancer profiles with method, sticky sessions and origin health',
  async fetch(platform, _arg, signal) {
    return platform.api.loadBalancers.listAll(signal);
  },
  columns: lbColumns,
});
