/** The parts of undici the clients use (undici-lib.ts). */
export type Undici = typeof import('./undici-lib');

let loading: Promise<Undici> | null = null;

/** undici is loaded with the first request, not at start-up: the first frame needs no network. */
export const loadUndici = (): Promise<Undici> => (loading ??= import('./undici-lib'));
