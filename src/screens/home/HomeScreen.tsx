import React from 'react';
import { Box } from 'ink';
import type { ScreenDef, ScreenProps } from '../screen-def';
import { useRegistry } from '../registry-context';
import { Table, type Column } from '../../components/Table';
import { ListTitle } from '../../components/ListTitle';
import { useUiStore } from '../../state/store-hooks';
import { SCREEN_ALIASES } from '../../renderers/screen-names';

const columns: Column<ScreenDef>[] = [
  { id: 'command', header: 'COMMAND', width: 14, cell: (d) => `:${d.id}${d.arg ? ' …' : ''}` },
  { id: 'aliases', header: 'ALIASES', width: 22, cell: (d) => d.aliases.map((a) => `:${a}`).join(' ') },
  { id: 'summary', header: 'WHAT', cell: (d) => d.summary },
];

/** The first screen: every screen the palette can open. Enter opens the selected one. */
export function HomeScreen({ width, height }: ScreenProps): React.JSX.Element {
  const registry = useRegistry();
  const ui = useUiStore();
  const rows = registry.filter((d) => d.id !== 'home');
  return (
    <Box flexDirection="column" width={width} height={height}>
      <ListTitle title="Screens" loading={false} hint="enter opens · : then a command · ? keys" />
      <Table id="screens" rows={rows} columns={columns} width={width} height={Math.max(3, height - 1)} onOpen={(d) => ui.getState().navigate(d.id, null)} />
    </Box>
  );
}

export const homeScreen: ScreenDef = {
  id: 'home',
  title: 'home',
  aliases: [...SCREEN_ALIASES.home],
  summary: 'the list of screens',
  component: HomeScreen,
};
