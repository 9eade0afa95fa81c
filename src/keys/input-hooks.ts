import { createContext, useContext, useEffect, useRef } from 'react';
import { PRIORITY, type ActionHandlers, type InputLayer, type InputRouter } from './input-router';
import { contextChain } from './keymap';
import { editText, type TextState } from './text-edit';

export interface InputContextValue {
  router: InputRouter;
  /** The layer that handlers registered from here belong to (the screen's), or null at the root. */
  layerId: string | null;
}

export const InputContext = createContext<InputContextValue | null>(null);

export function useInputRouter(): InputRouter {
  const v = useContext(InputContext);
  if (!v) throw new Error('useInputRouter outside InputContext');
  return v.router;
}

/**
 * Registers action handlers in the enclosing input layer (normally the screen's) while mounted
 * and `enabled`. Handlers may change on every render; the latest ones are used.
 * A handler returning false lets the key go on to the next handler (e.g. esc with nothing to close).
 */
export function useActions(handlers: ActionHandlers, options: { enabled?: boolean } = {}): void {
  const ctx = useContext(InputContext);
  if (!ctx) throw new Error('useActions outside InputContext');
  const ref = useRef(handlers);
  ref.current = handlers;
  const enabled = options.enabled ?? true;
  const { router, layerId } = ctx;
  useEffect(() => {
    if (!enabled) return;
    if (layerId === null) return router.addGlobalHandlers(() => ref.current);
    return router.addHandlers(layerId, () => ref.current);
  }, [router, layerId, enabled]);
}

/**
 * Adds an input layer while mounted (e.g. a screen's own text field). `active` is read at every
 * key, so make it read store state, not React state, to stay correct for keys typed quickly.
 */
export function useInputLayer(layer: InputLayer, handlers?: ActionHandlers): void {
  const router = useInputRouter();
  const layerRef = useRef(layer);
  layerRef.current = layer;
  const handlersRef = useRef(handlers ?? {});
  handlersRef.current = handlers ?? {};
  const id = layer.id;
  const priority = layer.priority;
  useEffect(() => {
    const remove = router.addLayer({
      id,
      priority,
      active: () => layerRef.current.active(),
      chain: () => layerRef.current.chain(),
      text: (ev) => layerRef.current.text?.(ev) ?? false,
    });
    const removeHandlers = router.addHandlers(id, () => handlersRef.current);
    return () => {
      removeHandlers();
      remove();
    };
  }, [router, id, priority]);
}

export interface TextInputOptions {
  /** Unique layer id, e.g. "videos:search". */
  id: string;
  /** True while the field has the keyboard. Read store state here (see useInputLayer). */
  active: () => boolean;
  get: () => TextState;
  set: (next: TextState) => void;
  /** Actions while the field has the keyboard, e.g. { 'prompt.apply': ..., 'prompt.cancel': ... }. */
  handlers: ActionHandlers;
  /** Contexts whose keys work in the field; default a prompt's (enter applies, esc cancels). */
  chain?: string[];
}

/**
 * A screen's own one-line text field (a search box): printable keys and line-editing keys go to
 * the text, the chain's actions (enter, esc...) to `handlers`. Draw it with <TextField state=.../>.
 */
export function useTextInput(options: TextInputOptions): void {
  const chain = options.chain ?? contextChain('prompt');
  useInputLayer(
    {
      id: options.id,
      priority: PRIORITY.field,
      active: options.active,
      chain: () => chain,
      text: (ev) => {
        const next = editText(options.get(), ev);
        if (next) options.set(next);
        return next !== null;
      },
    },
    options.handlers,
  );
}
