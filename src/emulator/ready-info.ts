/**
 * What `burrow emulator` prints as its one JSON ready line, and what a console or CLI that starts
 * its own emulator child reads back (runtime/connect.ts): the emulator's endpoints and credentials.
 */
export interface ReadyInfo {
  baseUrl: string;
  loggingUrl: string;
  databaseUrl: string;
  accessKey: string;
  databaseToken: string;
  readOnlyDatabaseToken: string;
  pullZoneIds: number[];
}
