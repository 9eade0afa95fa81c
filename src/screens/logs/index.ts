export { logsScreen } from './LogsScreen';
