export { databasesScreen } from './DatabasesScreen';
