import React, { useEffect, useMemo } from 'react';
import { Box, Text } from 'ink';
import { type ScreenDef, type ScreenProps, useScreenInstance } from '../screen-def';
import { useCopy } from '../../clipboard/use-clipboard';
import { Table } from '../../components/Table';
import { TextField } from '../../components/TextField';
import { useTone } from '../../components/theme';
import { useNow } from '../../components/use-now';
import { useActions, useTextInput } from '../../keys/input-hooks';
import { emptyText } from '../../keys/text-edit';
import { useDomainStore, useSelect, useUi, useUiStore } from '../../state/store-hooks';
import { createVideosStore, MAX_PAGE_SIZE, MIN_PAGE_SIZE } from '../../state/videos-store';
import { selectedRowOf } from '../../state/table-selection';
import { tableViewKey } from '../../text/table-model';
import { videosActions } from './actions';
import { detailColumns, formatDetailValue, libraryDetailRows, type DetailRow } from './detail-view';
import { terminalSafe } from '../../text/terminal-safe';
import { listSummary } from './list-view';
import { libraryColumns } from '../../renderers/video-libraries';
import { serverRecord } from '../server-record';
import { SCREEN_ALIASES } from '../../renderers/screen-names';
import { emptyListText, ListTitle } from '../../components/ListTitle';

const LIST_TABLE = 'libraries';
const DETAIL_TABLE = 'detail';
/** Load the next page when the selection is this close to the last loaded row (at most half a page). */
const loadMargin = (pageSize: number) => Math.min(10, Math.max(1, Math.floor(pageSize / 2)));

/**
 * Video libraries: a paged table (server-side search, page size, the next page loaded as the
 * selection nears the end), sortable by column; enter opens every field of a library, grouped,
 * with its keys masked (v shows one for a few seconds, c copies through OSC 52).
 */
export function VideosScreen({ width, height }: ScreenProps): React.JSX.Element {
  const store = useDomainStore(createVideosStore);
  const instance = useScreenInstance();
  const ui = useUiStore();
  const tone = useTone();
  const now = useNow(500);
  const copy = useCopy();
  const items = useSelect(store, (s) => s.items);
  const sortColumn = useUi((st) => st.views[tableViewKey(instance.key, LIST_TABLE)]?.sortColumn ?? null);
  const sortedBy = libraryColumns.find((c) => c.id === sortColumn)?.header.toLowerCase() ?? null;
  const summary = useSelect(store, (s) => listSummary(s, sortedBy));
  const hasMore = useSelect(store, (s) => s.hasMore);
  const error = useSelect(store, (s) => s.error);
  const field = useSelect(store, (s) => s.field);
  const detailId = useSelect(store, (s) => s.detailId);
  const revealed = useSelect(store, (s) => s.revealed);
  const library = useMemo(() => (detailId === null ? null : (items.find((l) => l.Id === detailId) ?? null)), [items, detailId]);
  const revealedField = revealed && library && revealed.libraryId === library.Id && now < revealed.until ? revealed.field : null;
  const detailRows = useMemo(() => (library ? libraryDetailRows(library) : []), [library]);
  const columns = useMemo(() => detailColumns(revealedField), [revealedField]);

  useEffect(() => store.getState().watch(), [store]);
  // a sort covers the whole set: the rest of the list is loaded for it (1000 per request)
  useEffect(() => {
    if (sortedBy && hasMore) void store.getState().loadAll();
  }, [store, sortedBy, hasMore]);

  const s = () => store.getState();
  /** The detail row selected right now (read from the stores, so it is right for fast keys). */
  const selectedDetail = (): { row: DetailRow; library: NonNullable<typeof library> } | null => {
    const st = s();
    const lib = st.detailId === null ? null : (st.items.find((l) => l.Id === st.detailId) ?? null);
    if (!lib) return null;
    const r = st.revealed;
    const shown = r && r.libraryId === lib.Id && Date.now() < r.until ? r.field : null;
    const sel = selectedRowOf(ui.getState(), tableViewKey(instance.key, DETAIL_TABLE), libraryDetailRows(lib), detailColumns(shown));
    return sel ? { row: sel.row, library: lib } : null;
  };

  const detailOpen = detailId !== null;
  useActions({
    'screen.refresh': () => void s().refresh(),
    'screen.pause': () => s().togglePause(),
    // Only the keys of the view on screen are registered, so help and hints show just those;
    // each still checks the store, which may have changed before this render.
    ...(detailOpen
      ? {
          'videos.reveal': {
            disabledReason: () => {
              const row = selectedDetail()?.row;
              return row && (row.kind !== 'field' || !row.secret) ? 'select ApiKey, ReadOnlyApiKey or ApiAccessKey to reveal it' : null;
            },
            run: () => {
              const sel = selectedDetail();
              if (!sel || sel.row.kind !== 'field') return false;
              s().reveal(sel.library.Id, sel.row.name);
              return true;
            },
          },
          'videos.copy': {
            disabledReason: () => {
              const row = selectedDetail()?.row;
              return row && row.kind !== 'field' ? 'select a field to copy its value' : null;
            },
            run: () => {
              const row = selectedDetail()?.row;
              if (!row || row.kind !== 'field') return false;
              const text = row.secret && typeof row.value === 'string' ? row.value : formatDetailValue(row.name, row.value);
              const note = copy(text, row.name);
              ui.getState().setStatus(note.text, note.level, 6000);
              return true;
            },
          },
          'app.back': () => {
            if (s().detailId === null) return false;
            s().closeDetail();
            return true;
          },
        }
      : {
          'videos.search': () => (s().detailId === null ? s().openField('search') : false),
          'videos.pageSize': () => (s().detailId === null ? s().openField('pageSize') : false),
        }),
  });

  useTextInput({
    id: 'videos:field',
    active: () => s().field !== null,
    get: () => s().field?.text ?? emptyText,
    set: (text) => s().setFieldText(text),
    handlers: {
      'prompt.apply': () => {
        const before = `${s().search}\n${s().pageSize}`;
        s().applyField();
        // A new search or page size starts the list again from its first row.
        if (`${s().search}\n${s().pageSize}` !== before) ui.getState().setView(tableViewKey(instance.key, LIST_TABLE), { selected: 0, offset: 0 });
      },
      'prompt.cancel': () => s().cancelField(),
    },
  });

  if (detailId !== null) {
    return (
      <Box flexDirection="column" width={width} height={height} overflow="hidden">
        <Text wrap="truncate">
          <Text bold>{`Video library ${terminalSafe(library?.Name ?? '')} (${detailId})`}</Text>
          <Text color={tone('muted')}>{'  keys are masked · esc back'}</Text>
        </Text>
        {library ? (
          <Table
            id={DETAIL_TABLE}
            rows={detailRows}
            columns={columns}
            width={width}
            height={Math.max(3, height - 1)}
            record={() => serverRecord(`video library ${library.Id} ${library.Name ?? ''}`, library)}
          />
        ) : (
          <Text color={tone('warn')}>{`library ${detailId} is no longer in the list (esc goes back)`}</Text>
        )}
      </Box>
    );
  }

  const fieldLabel = field?.kind === 'pageSize' ? 'page size ' : 'search on the server ';
  const listHeight = Math.max(3, height - 1 - (field ? 1 : 0));
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <ListTitle title="Video libraries" loading={false} summary={summary} errors={[error]} />
      {field ? (
        <Text wrap="truncate">
          <Text color={tone('accent')}>{fieldLabel}</Text>
          <TextField
            state={field.text}
            width={field.kind === 'pageSize' ? 6 : Math.floor(width / 3)}
            focused
            placeholder={field.kind === 'pageSize' ? String(s().pageSize) : undefined}
          />
          {field.error ? (
            <Text color={tone('error')}>{`  ✖ ${field.error}`}</Text>
          ) : (
            <Text color={tone('muted')}>
              {field.kind === 'pageSize' ? `  ${MIN_PAGE_SIZE} to ${MAX_PAGE_SIZE} · enter applies · esc cancels` : '  enter applies · esc cancels'}
            </Text>
          )}
        </Text>
      ) : null}
      <Table
        id={LIST_TABLE}
        rows={items}
        columns={libraryColumns}
        width={width}
        height={listHeight}
        emptyText={emptyListText(s().loadedAt, s().search ? `no library matches "${s().search}" on the server` : 'no video libraries')}
        onOpen={(l) => s().openDetail(l.Id)}
        record={(l) => serverRecord(`video library ${l.Id} ${l.Name ?? ''}`, l)}
        onSelect={() => {
          const st = s();
          const sel = selectedRowOf(ui.getState(), tableViewKey(instance.key, LIST_TABLE), st.items, libraryColumns);
          if (sel && sel.position >= sel.shown - loadMargin(st.pageSize)) void st.loadMore();
        }}
      />
    </Box>
  );
}

export const videosScreen: ScreenDef = {
  id: 'videos',
  title: 'videos',
  aliases: [...SCREEN_ALIASES.videos],
  summary: 'video libraries: paged, searchable, every field; keys masked',
  actions: videosActions,
  component: VideosScreen,
};
