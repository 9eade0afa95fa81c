import React, { useEffect } from 'react';
import { Box, Text } from 'ink';
import type { ScreenDef, ScreenProps } from '../../app/screen-types';
import { Table } from '../../components/Table';
import { useTone } from '../../components/theme';
import { useActions } from '../../keys/react';
import { createDatabasesStore } from '../../state/databases-store';
import { useDomainStore, useSelect } from '../../state/react';
import { databaseColumns } from './databases-view';

/** The account's databases: name, regions, size, rows read and written over 30 days. */
export function DatabasesScreen({ width, height }: ScreenProps): React.JSX.Element {
  const store = useDomainStore(createDatabasesStore);
  const tone = useTone();
  const rows = useSelect(store, (s) => s.rows);
  const loadedAt = useSelect(store, (s) => s.loadedAt);
  const error = useSelect(store, (s) => s.error);
  useEffect(() => store.getState().watch(), [store]);
  useActions({
    'screen.refresh': () => void store.getState().refresh(),
    'screen.pause': () => store.getState().togglePause(),
  });
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text wrap="truncate">
        <Text bold>Databases</Text>
        <Text color={tone('muted')}>{loadedAt === null ? '  loading…' : `  ${rows.length} database${rows.length === 1 ? '' : 's'} · usage over the last 30 days · burrow sql --database NAME opens one`}</Text>
        {error ? <Text color={tone('error')}>{`  ✖ ${error}`}</Text> : null}
      </Text>
      <Table id="databases" rows={rows} columns={databaseColumns} width={width} height={Math.max(3, height - 1)} emptyText={loadedAt === null ? 'loading…' : 'no databases'} />
    </Box>
  );
}

export const databasesScreen: ScreenDef = {
  id: 'databases',
  title: 'databases',
  aliases: ['db'],
  summary: 'databases: regions, size, rows read and written',
  component: DatabasesScreen,
};
