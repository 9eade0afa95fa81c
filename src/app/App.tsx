import React, { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { Box, Text, useInput, useStdin, useStdout } from 'ink';
import { CommandPalette, paletteHeight } from '../components/CommandPalette';
import { Confirm } from '../components/Confirm';
import { Header } from '../components/Header';
import { HelpOverlay, helpLines, keysText, maxHelpScroll, type HelpSection } from '../components/HelpOverlay';
import { StatusBar, STATUS_BAR_HEIGHT } from '../components/StatusBar';
import { ThemeContext, useTone } from '../components/theme';
import { useNow } from '../components/use-now';
import { InputRouter, PRIORITY } from '../keys/input-router';
import { keyEventsFromInk } from '../keys/key-event';
import { contextChain, panelContexts, type ActionDef, type Keymap } from '../keys/keymap';
import { InputContext } from '../keys/input-hooks';
import { editText } from '../keys/text-edit';
import { ConsoleContext, type ConnectionInfo, useConsole, useUi } from '../state/store-hooks';
import type { DomainStores } from '../state/domain-stores';
import { readOnlyLabel, topScreen, type UiState } from '../state/ui-store';
import { complete, paletteCommands, parseCommand, suggest } from './palette';
import { RegistryContext } from '../screens/registry-context';
import { type ScreenDef, ScreenInstanceContext } from '../screens/screen-def';
import { RawRecordView } from '../screens/raw-record-view';
import { TableScopeContext, TableViewsContext } from '../components/table-views';
import { useAttention } from './use-attention';
import { editInTerminal } from './external-editor';

export const MIN_COLUMNS = 80;
export const MIN_ROWS = 24;
const MAX_SUGGESTIONS = 6;
const HEADER_HEIGHT = 1;

export interface AppProps {
  stores: DomainStores;
  info: ConnectionInfo;
  keymap: Keymap;
  registry: readonly ScreenDef[];
}

/**
 * Rows the frame may use: one less than the terminal. A frame as tall as the terminal makes
 * Ink clear and repaint the whole screen on every update (its "fullscreen" path), which is what
 * incremental rendering is meant to avoid over SSH.
 */
export function frameRows(rows: number): number {
  return Math.max(1, rows - 1);
}

function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || MIN_COLUMNS, rows: stdout.rows || MIN_ROWS });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stdout]);
  return size;
}

export function App(props: AppProps): React.JSX.Element {
  const { stores, info } = props;
  const ui = stores.deps.ui;
  const keymapRef = useRef(props.keymap);
  keymapRef.current = props.keymap;
  const router = useMemo(
    () =>
      new InputRouter({
        keymap: () => keymapRef.current,
        allow: (a) => {
          if (!a.mutates || !ui.getState().readOnly) return true;
          ui.getState().setStatus(`${readOnlyLabel(ui.getState())}: ${a.description} is not available`, 'warn', 6000);
          return false;
        },
        hidden: (a) => Boolean(a.mutates && ui.getState().readOnly),
        onDisabled: (_action, reason) => ui.getState().setStatus(reason, 'info', 4000),
      }),
    [ui],
  );
  const consoleValue = useMemo(() => ({ stores, info }), [stores, info]);
  const theme = useMemo(() => ({ color: info.color }), [info.color]);

  const keyTicks = useMemo(() => new KeyTicks(), []);
  // The one input owner: every key goes through the router.
  useInput((input, key) => {
    for (const ev of keyEventsFromInk(input, key)) router.dispatch(ev);
    keyTicks.bump();
  });

  return (
    <ConsoleContext.Provider value={consoleValue}>
      <ThemeContext.Provider value={theme}>
        <RegistryContext.Provider value={props.registry}>
          <InputContext.Provider value={{ router, layerId: null }}>
            <TableViewsContext.Provider value={ui}>
              <Shell router={router} registry={props.registry} keymap={props.keymap} keyTicks={keyTicks} />
            </TableViewsContext.Provider>
          </InputContext.Provider>
        </RegistryContext.Provider>
      </ThemeContext.Provider>
    </ConsoleContext.Provider>
  );
}

/**
 * Counts the keys handled. A key can open or close a prompt (a store's state, which the shell
 * does not read): the hint bar re-reads the layers after each one, so it never says what enter
 * and esc did before the prompt opened.
 */
class KeyTicks {
  private n = 0;
  private readonly listeners = new Set<() => void>();
  bump(): void {
    this.n++;
    for (const l of this.listeners) l();
  }
  readonly subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
  readonly get = (): number => this.n;
}

/** The status bar with the hints of the top layer now: the keys that can run (no disabled ones). */
function LiveStatusBar({
  router,
  keyTicks,
  ...bar
}: Omit<React.ComponentProps<typeof StatusBar>, 'hints'> & { router: InputRouter; keyTicks: KeyTicks }): React.JSX.Element {
  useSyncExternalStore(keyTicks.subscribe, keyTicks.get);
  // a hint for a key that cannot run here now (home's d raw, a Basic-plan zone's edits) is left out
  const hints = router.available().filter((a) => router.disabledReason(a.id) === null);
  return <StatusBar {...bar} hints={hints} />;
}

interface ShellProps {
  router: InputRouter;
  registry: readonly ScreenDef[];
  keymap: Keymap;
  keyTicks: KeyTicks;
}

function Shell({ router, registry, keymap, keyTicks }: ShellProps): React.JSX.Element {
  const { columns, rows } = useTerminalSize();
  const { stores: consoleStores, info } = useConsole();
  const ui = consoleStores.deps.ui;
  useAttention(ui);
  const stack = useUi((s) => s.stack);
  const crumbLabels = useUi((s) => s.crumbs);
  const palette = useUi((s) => s.palette);
  const overlay = useUi((s) => s.overlay);
  const request = useUi((s) => s.request);
  const status = useUi((s) => s.status);
  const readOnly = useUi((s) => s.readOnly);
  const warnings = useUi((s) => s.warnings);
  useSyncExternalStore(
    (l) => router.subscribe(l),
    () => router.version,
  );
  const now = useNow(1000);
  const tone = useTone();
  // ctrl-l: one frame as tall as the terminal, then the normal one. Ink repaints the whole
  // screen after a full-height frame, which wipes whatever garbage the terminal shows.
  const [tall, setTall] = useState(false);
  const commands = useMemo(() => paletteCommands(registry), [registry]);

  const top = topScreen({ stack });
  const def = registry.find((d) => d.id === top.id) ?? registry[0]!;
  const tooSmall = columns < MIN_COLUMNS || rows < MIN_ROWS;
  const height = tall ? rows : frameRows(rows);
  const suggestions = palette.open ? suggest(commands, palette.text.value) : [];
  const paletteLines = palette.open ? paletteHeight(suggestions.length, MAX_SUGGESTIONS) : 0;
  const bodyHeight = Math.max(1, height - HEADER_HEIGHT - STATUS_BAR_HEIGHT - paletteLines);

  const helpSections = (): HelpSection[] => {
    const available = router.available(PRIORITY.help);
    const hide = (a: ActionDef) => Boolean(a.mutates && readOnly);
    const of = (...contexts: string[]) => available.filter((a) => contexts.includes(a.context) && !hide(a));
    const disabledReason = (id: string) => router.disabledReason(id, PRIORITY.help);
    const fromKeymap = (context: string) => keymap.actions.filter((a) => a.context === context && !hide(a));
    return [
      { title: 'Everywhere', actions: of('global', 'always'), disabledReason },
      { title: `This screen (${def.title})`, actions: of(def.id, 'screen'), disabledReason },
      ...panelContexts(keymap, def.id).map((c) => ({
        title: `This screen's ${c.slice(def.id.length + 1)} (when it has the keys)`,
        actions: of(c),
        disabledReason,
      })),
      { title: 'Tables', actions: of('list'), disabledReason },
      { title: 'Command palette (:)', actions: fromKeymap('palette') },
      { title: 'Filter field (/)', actions: fromKeymap('filter') },
      { title: 'Prompts and forms', actions: fromKeymap('prompt') },
      { title: 'Confirmation', actions: readOnly ? [] : fromKeymap('confirm') },
    ];
  };
  const help =
    overlay?.kind === 'help'
      ? [
          ...warnings.flatMap((w, i) => [...(i === 0 ? [{ text: 'Warnings', heading: true }] : []), { text: `  ${w}` }]),
          ...(warnings.length ? [{ text: '' }] : []),
          ...helpLines(
            helpSections(),
            commands.map((c) => ({ name: c.name, aliases: c.aliases, summary: c.summary, argName: c.arg?.name })),
          ),
        ]
      : [];
  const helpRef = useRef({ lines: help.length, height: bodyHeight });
  helpRef.current = { lines: help.length, height: bodyHeight };

  useEffect(() => {
    const removeGlobals = router.addGlobalHandlers(() => ({
      'app.palette': () => ui.getState().openPalette(),
      'app.help': () => ui.getState().openHelp(),
      'app.back': {
        disabledReason: () => (ui.getState().stack.length > 1 ? null : 'this is the first screen: q quits'),
        run: () => void ui.getState().back(),
      },
      'app.quit': () => ui.getState().requestQuit(),
      'app.interrupt': () => ui.getState().interrupt(),
      'app.redraw': () => setTall(true),
    }));
    const s = () => ui.getState();
    const removers = [
      router.addLayer({
        id: 'palette',
        priority: PRIORITY.palette,
        active: () => s().palette.open,
        chain: () => contextChain('palette'),
        text: (ev) => {
          const next = editText(s().palette.text, ev);
          if (next) s().setPaletteText(next);
          return next !== null;
        },
      }),
      router.addHandlers('palette', () => ({
        'palette.close': () => s().closePalette(),
        'palette.complete': () => {
          const { text, selected } = s().palette;
          const value = complete(commands, text.value, selected);
          s().setPaletteText({ value, cursor: value.length });
        },
        'palette.next': () => {
          const count = Math.min(MAX_SUGGESTIONS, suggest(commands, s().palette.text.value).length);
          if (count) s().setPaletteSelected((s().palette.selected + 1) % count);
        },
        'palette.prev': () => {
          const count = Math.min(MAX_SUGGESTIONS, suggest(commands, s().palette.text.value).length);
          if (count) s().setPaletteSelected((s().palette.selected - 1 + count) % count);
        },
        'palette.run': () => runPalette(s(), commands),
      })),
      router.addLayer({
        id: 'filter',
        priority: PRIORITY.filter,
        active: () => s().editingFilter !== null,
        chain: () => contextChain('filter'),
        text: (ev) => {
          const key = s().editingFilter;
          if (key === null) return false;
          const next = editText(s().filters[key]?.text ?? { value: '', cursor: 0 }, ev);
          if (next) s().setFilterText(key, next);
          return next !== null;
        },
      }),
      router.addHandlers('filter', () => ({
        'filter.apply': () => s().endFilter(true),
        'filter.cancel': () => s().endFilter(false),
      })),
      router.addLayer({
        id: 'help',
        priority: PRIORITY.help,
        active: () => s().overlay?.kind === 'help',
        chain: () => contextChain('help'),
      }),
      router.addHandlers('help', () => {
        const { lines, height: h } = helpRef.current;
        const max = maxHelpScroll(lines, h);
        const scrollTo = (f: (cur: number) => number) => {
          const o = s().overlay;
          if (o?.kind !== 'help') return;
          const cur = Math.min(o.scroll, max);
          s().scrollHelp(Math.max(0, Math.min(max, f(cur))) - o.scroll);
        };
        return {
          'help.close': () => s().closeOverlay(),
          'nav.down': () => scrollTo((c) => c + 1),
          'nav.up': () => scrollTo((c) => c - 1),
          'nav.pageDown': () => scrollTo((c) => c + h - 2),
          'nav.pageUp': () => scrollTo((c) => c - h + 2),
          'nav.top': () => scrollTo(() => 0),
          'nav.bottom': () => scrollTo(() => max),
        };
      }),
      router.addLayer({
        id: 'confirm',
        priority: PRIORITY.confirm,
        active: () => s().overlay?.kind === 'confirm',
        chain: () => contextChain('confirm'),
      }),
      router.addHandlers('confirm', () => ({
        'confirm.yes': () => {
          const o = s().overlay;
          if (o?.kind !== 'confirm') return;
          s().closeOverlay();
          void o.request.onYes();
        },
        'confirm.no': () => {
          const o = s().overlay;
          if (o?.kind !== 'confirm') return;
          s().closeOverlay();
          o.request.onNo?.();
        },
      })),
    ];
    return () => {
      removeGlobals();
      for (const r of removers) r();
    };
  }, [router, ui, commands]);

  // the SQL shell's .edit and ctrl-x ctrl-e: the terminal handed to $EDITOR and taken back
  const { stdout } = useStdout();
  const { stdin } = useStdin();
  useEffect(() => {
    ui.getState().setExternalEditor((text, extension) => editInTerminal(text, extension, { stdout, stdin, env: process.env, redraw: () => setTall(true) }));
    return () => ui.getState().setExternalEditor(null);
  }, [ui, stdout, stdin]);

  useEffect(() => {
    if (!tall) return;
    const t = setTimeout(() => setTall(false), 120);
    return () => clearTimeout(t);
  }, [tall]);

  if (tooSmall) {
    return (
      <Box flexDirection="column" width={columns} height={height} overflow="hidden">
        <Text color={tone('warn')} bold wrap="wrap">
          {`terminal too small (need ${MIN_COLUMNS}x${MIN_ROWS}, have ${columns}x${rows})`}
        </Text>
        <Text wrap="wrap">Make the window bigger, or press q to quit.</Text>
      </Box>
    );
  }

  const crumbs = stack.map((inst) => {
    const d = registry.find((r) => r.id === inst.id);
    return crumbLabels[inst.key] ?? `${d?.title ?? inst.id}${inst.arg !== null ? ` ${inst.arg}` : ''}`;
  });
  // a hint for a key that cannot run here now (home's d raw, a Basic-plan zone's edits) is left out
  const confirmKeys = (id: string) => keysText(keymap.byId.get(id)?.keys ?? []).replace(/ /g, '/');

  const Screen = def.component;
  return (
    <Box flexDirection="column" width={columns} height={height} overflow="hidden">
      <Header width={columns} emulator={info.emulator} profileName={info.profileName} endpoint={info.endpoint} readOnly={readOnly} crumbs={crumbs} />
      {palette.open ? (
        <CommandPalette
          text={palette.text}
          suggestions={suggestions.map((s) => ({ name: s.command.name, aliases: s.command.aliases, summary: s.command.summary, argName: s.command.arg?.name }))}
          selected={palette.selected}
          width={columns}
          maxSuggestions={MAX_SUGGESTIONS}
        />
      ) : null}
      <Box flexDirection="column" width={columns} height={bodyHeight} overflow="hidden">
        {overlay?.kind === 'help' ? <HelpOverlay lines={help} scroll={overlay.scroll} width={columns} height={bodyHeight} /> : null}
        <RawRecordView width={columns} height={bodyHeight} />
        {overlay?.kind === 'confirm' ? (
          <Confirm
            title={overlay.request.title}
            detail={overlay.request.detail}
            lines={overlay.request.lines}
            yesLabel={overlay.request.yesLabel}
            yesKeys={confirmKeys('confirm.yes')}
            noKeys={confirmKeys('confirm.no')}
            width={columns}
            height={bodyHeight}
          />
        ) : null}
        <Box display={overlay ? 'none' : 'flex'} flexDirection="column" height={bodyHeight}>
          <ScreenInstanceContext.Provider value={top}>
            <TableScopeContext.Provider value={top.key}>
              <ScreenLayer router={router} screenId={def.id} instanceKey={top.key}>
                <Screen key={top.key} instance={top} width={columns} height={bodyHeight} />
              </ScreenLayer>
            </TableScopeContext.Provider>
          </ScreenInstanceContext.Provider>
        </Box>
      </Box>
      <LiveStatusBar width={columns} now={now} request={request} message={status} router={router} keyTicks={keyTicks} />
    </Box>
  );
}

/** Gives the visible screen its input layer; the screen's useActions calls land in it. */
function ScreenLayer({
  router,
  screenId,
  instanceKey,
  children,
}: {
  router: InputRouter;
  screenId: string;
  instanceKey: string;
  children: React.ReactNode;
}): React.JSX.Element {
  const layerId = `screen:${instanceKey}`;
  useEffect(
    () =>
      router.addLayer({
        id: layerId,
        priority: PRIORITY.screen,
        active: () => true,
        // the screen's panels first: their handlers pass keys on while they do not have the focus
        chain: () => [...panelContexts(router.keymap, screenId), ...contextChain('screen', screenId)],
      }),
    [router, layerId, screenId],
  );
  const value = useMemo(() => ({ router, layerId }), [router, layerId]);
  return <InputContext.Provider value={value}>{children}</InputContext.Provider>;
}

function runPalette(s: UiState, commands: ReturnType<typeof paletteCommands>): void {
  const parsed = parseCommand(commands, s.palette.text.value, s.palette.selected);
  // closed either way, so the next : starts from an empty line (the status line keeps what was typed)
  s.closePalette();
  if (!parsed.ok) {
    s.setStatus(parsed.message, 'error', 10_000);
    return;
  }
  const action = parsed.command.action;
  if (action.kind === 'screen') s.open(action.screenId, parsed.arg);
  else if (action.kind === 'help') s.openHelp();
  else s.requestQuit();
}
