import type { KeyEvent } from './key-event';
import { resolveAction, type ActionDef, type ActionId, type Keymap } from './keymap';

/** An action handler; returning false passes the key on to the next candidate. */
export type ActionHandler = (event: KeyEvent) => boolean | void;

/**
 * A handler whose action can be unavailable for a reason the user should see: help shows the
 * action greyed with the reason, and its key shows the reason in the status bar instead of running.
 */
export interface GuardedHandler {
  run: ActionHandler;
  /** Why the action cannot run right now, or null when it can. */
  disabledReason: () => string | null;
}

export type ActionEntry = ActionHandler | GuardedHandler;

/** Handlers by action id: only declared ids (ActionId) compile. */
export type ActionHandlers = Partial<Record<ActionId, ActionEntry>>;

function entryOf(handlers: ActionHandlers, id: string): ActionEntry | undefined {
  return (handlers as Partial<Record<string, ActionEntry>>)[id];
}

function reasonOf(entry: ActionEntry): string | null {
  return typeof entry === 'function' ? null : entry.disabledReason();
}

/**
 * A place that can have the keyboard: an overlay, the palette, a text field, a screen.
 * Only the top active layer (highest priority) gets a key: overlay > palette > field > screen.
 */
export interface InputLayer {
  id: string;
  priority: number;
  /** Evaluated at every key, so a layer opened by the previous key is already on top. */
  active(): boolean;
  /** Contexts this layer fires, most specific first (see contextChain). */
  chain(): string[];
  /** Takes printable text first, and any key no action took (editing keys). True = consumed. */
  text?: (event: KeyEvent) => boolean;
}

export interface RouterOptions {
  keymap: () => Keymap;
  /** False = the action is refused (e.g. a mutation in read-only mode); the key is consumed. */
  allow?: (action: ActionDef) => boolean;
  /** True = the action is left out of help and hints (e.g. mutations in read-only mode). */
  hidden?: (action: ActionDef) => boolean;
  /** A key hit an action that cannot run now; the key is consumed. */
  onDisabled?: (action: ActionDef, reason: string) => void;
}

export const PRIORITY = { screen: 0, field: 10, filter: 20, palette: 30, help: 40, confirm: 50 } as const;

interface LayerEntry {
  layer: InputLayer;
  order: number;
}

interface Provider {
  order: number;
  get: () => ActionHandlers;
}

/**
 * The single owner of keyboard input: the root's one useInput hands every key here.
 * Components add layers and handlers; the keymap decides which action a key is.
 */
export class InputRouter {
  private readonly layers = new Map<string, LayerEntry>();
  /** Handlers per layer id; may be added before the layer itself (child effects run first). */
  private readonly providers = new Map<string, Provider[]>();
  private readonly globals: Provider[] = [];
  private counter = 0;
  private readonly listeners = new Set<() => void>();
  /** Bumped whenever a layer or handler set comes or goes (help and hints re-read then). */
  version = 0;

  constructor(private readonly options: RouterOptions) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private bump(): void {
    this.version += 1;
    for (const l of this.listeners) l();
  }

  get keymap(): Keymap {
    return this.options.keymap();
  }

  addLayer(layer: InputLayer): () => void {
    const entry: LayerEntry = { layer, order: this.counter++ };
    this.layers.set(layer.id, entry);
    this.bump();
    return () => {
      if (this.layers.get(layer.id) === entry) this.layers.delete(layer.id);
      this.bump();
    };
  }

  /** Handlers for one layer; later additions are asked first. */
  addHandlers(layerId: string, get: () => ActionHandlers): () => void {
    const list = this.providers.get(layerId) ?? [];
    this.providers.set(layerId, list);
    const provider = { order: this.counter++, get };
    list.push(provider);
    this.bump();
    return () => {
      const i = list.indexOf(provider);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0 && this.providers.get(layerId) === list) this.providers.delete(layerId);
      this.bump();
    };
  }

  /** Handlers that serve every layer whose chain includes the action's context (app.*, etc.). */
  addGlobalHandlers(get: () => ActionHandlers): () => void {
    const provider = { order: this.counter++, get };
    this.globals.push(provider);
    this.bump();
    return () => {
      const i = this.globals.indexOf(provider);
      if (i >= 0) this.globals.splice(i, 1);
      this.bump();
    };
  }

  /** The active layer with the highest priority (below `below` when given). */
  top(below = Infinity): InputLayer | null {
    let best: LayerEntry | null = null;
    for (const e of this.layers.values()) {
      if (!e.layer.active() || e.layer.priority >= below) continue;
      if (!best || e.layer.priority > best.layer.priority || (e.layer.priority === best.layer.priority && e.order > best.order)) best = e;
    }
    return best?.layer ?? null;
  }

  private handlersFor(layer: InputLayer | null): ActionHandlers[] {
    const own = layer ? [...(this.providers.get(layer.id) ?? [])].sort((a, b) => b.order - a.order).map((p) => p.get()) : [];
    const globals = [...this.globals].sort((a, b) => b.order - a.order).map((p) => p.get());
    return [...own, ...globals];
  }

  /** The actions that would fire now in the top layer (or the top one below a priority), in chain order. */
  available(below = Infinity): ActionDef[] {
    const layer = this.top(below);
    const chain = layer ? layer.chain() : ['global', 'always'];
    const handlers = this.handlersFor(layer);
    const has = (id: string) => handlers.some((h) => entryOf(h, id) !== undefined);
    const out: ActionDef[] = [];
    const hidden = this.options.hidden ?? (() => false);
    for (const context of chain) for (const a of this.keymap.actions) if (a.context === context && has(a.id) && !hidden(a)) out.push(a);
    return out;
  }

  /** Why an action in the top layer (below `below`) cannot run now, or null. */
  disabledReason(actionId: string, below = Infinity): string | null {
    for (const h of this.handlersFor(this.top(below))) {
      const entry = entryOf(h, actionId);
      if (entry) return reasonOf(entry);
    }
    return null;
  }

  /** Routes one key. Returns the id of the action that took it, 'text' for a text field, or null. */
  dispatch(event: KeyEvent): string | null {
    const layer = this.top();
    if (layer?.text && event.text !== null && layer.text(event)) return 'text';
    const chain = layer ? layer.chain() : ['global', 'always'];
    const handlers = this.handlersFor(layer);
    const candidates = resolveAction(this.keymap, chain, event.name, (id) => handlers.some((h) => entryOf(h, id) !== undefined));
    for (const action of candidates) {
      if (this.options.allow && !this.options.allow(action)) return action.id;
      for (const h of handlers) {
        const entry = entryOf(h, action.id);
        if (!entry) continue;
        const reason = reasonOf(entry);
        if (reason !== null) {
          this.options.onDisabled?.(action, reason);
          return action.id;
        }
        const run = typeof entry === 'function' ? entry : entry.run;
        if (run(event) !== false) return action.id;
      }
    }
    if (layer?.text && layer.text(event)) return 'text';
    return null;
  }
}
