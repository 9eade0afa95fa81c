export { videosScreen } from './VideosScreen';
