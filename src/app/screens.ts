import type { ScreenDef } from '../screens/screen-def';
import { homeScreen } from '../screens/home/index';
import { containersScreen } from '../screens/containers/index';
import { videosScreen } from '../screens/videos/index';
import { lbScreen } from '../screens/load-balancers/index';
import { shieldScreen } from '../screens/shield/index';
import { sqlScreen } from '../screens/sql/index';
import { logsScreen } from '../screens/logs/index';
import { databasesScreen } from '../screens/databases/index';

/**
 * Every screen the palette can open, one line each. To add a screen, build it in its own
 * folder (src/screens/<id>/index.ts exporting a ScreenDef) and add it here (see docs/SCREENS.md).
 */
export const SCREENS: readonly ScreenDef[] = [homeScreen, shieldScreen, containersScreen, videosScreen, lbScreen, logsScreen, sqlScreen, databasesScreen];

export const HOME_SCREEN = homeScreen.id;
