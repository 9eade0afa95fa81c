export { containersScreen } from './ContainersScreen';
