export { homeScreen } from './HomeScreen';
