/**
 * A lean bundle (scripts/build.mjs) holds the CLI with one command. Asked for another command,
 * its registry's import of that command fails with this code, and bin/run-bundle.cjs runs the
 * full bundle instead; nothing has been printed or sent by then.
 */
const NOT_IN_THIS_BUNDLE = 'BURROW_NOT_IN_THIS_BUNDLE';

/** What the lean bundle's stand-in for another command's module throws. */
export function notInThisBundle(module: string): Error {
  return Object.assign(new Error(`${module} is not in this bundle`), { code: NOT_IN_THIS_BUNDLE });
}

export function isNotInThisBundle(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === NOT_IN_THIS_BUNDLE;
}
