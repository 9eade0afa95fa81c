export { shieldScreen } from './ShieldScreen';
