import type { z } from 'zod';
import { lazyModule } from '../config/lazy-module';

/** The `z` namespace of zod. */
export type Zod = typeof z;

/**
 * A zod schema built on first use. Building the API's schemas took 5-7 ms and evaluating zod
 * itself about as much again, at every start of every command, although the console draws its
 * first frame before any answer needs checking: so zod is loaded, and each schema built, when the
 * first answer that needs it arrives.
 */
export interface LazySchema<S extends z.ZodType> {
  /** The schema: loads zod and builds it the first time. */
  load(): Promise<S>;
  /** The schema, built with zod at hand: for use inside another schema's builder. */
  of(zod: Zod): S;
}

/** The type a lazy schema's successful parse gives. */
export type Infer<L> = L extends LazySchema<infer S> ? z.output<S> : never;

let zodLoading: Promise<Zod> | null = null;

export function loadZod(): Promise<Zod> {
  return (zodLoading ??= lazyModule(() => import('zod'), 'z').then((namespace) => namespace.z));
}

/** `lazySchema((z) => z.object({ ... }))`: nothing is built (or loaded) until `load()` or `of(z)`. */
export function lazySchema<S extends z.ZodType>(build: (zod: Zod) => S): LazySchema<S> {
  let built: S | undefined;
  const of = (zod: Zod): S => (built ??= build(zod));
  return {
    of,
    load: async () => built ?? of(await loadZod()),
  };
}
