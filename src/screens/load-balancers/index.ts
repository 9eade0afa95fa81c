export { lbScreen } from './LoadBalancersScreen';
