import React, { useEffect } from 'react';
import { Box } from 'ink';
import type { ScreenDef, ScreenProps } from '../screen-def';
import { Table } from '../../components/Table';
import { emptyListText, ListTitle } from '../../components/ListTitle';
import { useNow } from '../../components/use-now';
import { useActions } from '../../keys/input-hooks';
import { createContainersStore } from '../../state/containers-store';
import { useDomainStore, useSelect } from '../../state/store-hooks';
import { containersActions } from './actions';
import { appsSummary, nearEnd } from './apps-view';
import { appColumns } from '../../renderers/container-apps';
import { LIMITS_PANEL_HEIGHT, LimitsPanel } from './LimitsPanel';
import { RegionEditor } from './RegionEditor';
import { serverRecord } from '../server-record';
import { SCREEN_ALIASES } from '../../renderers/screen-names';
import { useCrumb } from '../use-crumb';

/**
 * Magic Containers. The limits gauges on top and the applications list below; enter on an
 * application opens its region settings editor in place of both (esc comes back).
 */
export function ContainersScreen({ width, height }: ScreenProps): React.JSX.Element {
  const store = useDomainStore(createContainersStore);
  const limits = useSelect(store, (s) => s.limits);
  const limitsAt = useSelect(store, (s) => s.limitsAt);
  const error = useSelect(store, (s) => s.limitsError);
  const paused = useSelect(store, (s) => s.paused);
  const apps = useSelect(store, (s) => s.apps);
  const editorOpen = useSelect(store, (s) => s.editor !== null);
  const editedApp = useSelect(store, (s) => (s.editor ? (s.editor.app.name ?? s.editor.app.id) : null));
  useCrumb(editedApp === null ? null : `containers › ${editedApp}`);
  const now = useNow(1000);

  useEffect(() => store.getState().watch(), [store]);
  useActions({
    'screen.refresh': () => void store.getState().refresh(),
    'screen.pause': () => store.getState().togglePause(),
  });

  if (editorOpen) return <RegionEditor store={store} width={width} height={height} now={now} />;

  const listHeight = Math.max(3, height - LIMITS_PANEL_HEIGHT - 1);
  return (
    <Box flexDirection="column" width={width} height={height}>
      <LimitsPanel limits={limits} limitsAt={limitsAt} error={error} paused={paused} now={now} width={width} />
      <ListTitle
        title="Applications"
        loading={false}
        summary={[appsSummary(apps), 'enter: region settings'].filter(Boolean).join(' · ')}
        errors={[apps.error]}
      />
      <Table
        id="apps"
        rows={apps.items}
        columns={appColumns}
        width={width}
        height={listHeight}
        emptyText={emptyListText(apps.loadedAt, 'no applications')}
        onOpen={(app) => store.getState().openEditor(app)}
        record={(app) => serverRecord(`application ${app.id} ${app.name ?? ''}`, app)}
        onSelect={(app) => {
          if (!app) return;
          const items = store.getState().apps.items;
          if (nearEnd(items.indexOf(app), items.length)) void store.getState().loadMoreApps();
        }}
      />
    </Box>
  );
}

export const containersScreen: ScreenDef = {
  id: 'containers',
  title: 'containers',
  aliases: [...SCREEN_ALIASES.containers],
  summary: 'Magic Containers: limits and usage, apps, region settings',
  actions: containersActions,
  component: ContainersScreen,
};
