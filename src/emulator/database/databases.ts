import type Database from 'libsql';
import type { Random } from '../random';
import { seedAnalytics, seedInventory, seedShop } from './seed';

export const PRIMARY_DATABASE = { id: 'db_01KCHBG8C5KSFGG0VRNFQ7EK7X', name: 'burrow-demo' };

export interface DatabaseDef {
  id: string;
  name: string;
  storageRegion: string;
  primaryRegions: string[];
  replicasRegions: string[];
  /** The primary database is served at the root of the database origin, the others under /db/{name}/. */
  primary: boolean;
  seed(db: InstanceType<typeof Database>, random: Random, now: number): void;
}

export const DATABASES: DatabaseDef[] = [
  { ...PRIMARY_DATABASE, storageRegion: 'eu-central-1', primaryRegions: ['DE'], replicasRegions: ['NY', 'SG', 'UK'], primary: true, seed: seedShop },
  {
    id: 'db_01KCHD2M7Q9X4T6V8W0Y3Z5N1P',
    name: 'analytics-events',
    storageRegion: 'us-east-1',
    primaryRegions: ['NY'],
    replicasRegions: ['LA'],
    primary: false,
    seed: seedAnalytics,
  },
  {
    id: 'db_01KD0R5S7T9V1W3X5Y7Z9A2B4C',
    name: 'inventory-eu',
    storageRegion: 'eu-central-1',
    primaryRegions: ['AMS'],
    replicasRegions: [],
    primary: false,
    seed: (db, r) => seedInventory(db, r),
  },
];

/** "Now" as far as the seeded data is concerned. */
export const SEED_EPOCH = Date.UTC(2026, 5, 30, 12, 0, 0);
