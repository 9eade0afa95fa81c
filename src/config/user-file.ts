import fs from 'node:fs';

/**
 * The one way burrow writes a file a person named (`.output FILE` in both SQL shells, the logs
 * export): created 0600 (results and logs hold data others should not read), never through a
 * symbolic link, and never over something that is there unless the person said to replace it.
 * A FIFO or a device is never opened (it could block or be a terminal). Replacing removes what
 * is there (a link itself, not what it points to) and creates a new file, O_EXCL and O_NOFOLLOW,
 * so a link planted in between makes the open fail instead of being written through.
 */

/** What is at a path now, without following a link; null when nothing is. */
export type Existing = { kind: 'file' } | { kind: 'link'; target: string } | { kind: 'other'; what: string };

export function existingAt(file: string): Existing | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (st.isSymbolicLink()) {
    let target = '?';
    try {
      target = fs.readlinkSync(file);
    } catch {
      // unreadable: still a link
    }
    return { kind: 'link', target };
  }
  if (st.isFile()) return { kind: 'file' };
  return { kind: 'other', what: st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : 'a device' };
}

/** How to say what is there, after the path: "already exists", "is a symbolic link to /etc/passwd". */
export function describeExisting(existing: Existing): string {
  if (existing.kind === 'file') return 'already exists';
  if (existing.kind === 'link') return `is a symbolic link (to ${existing.target})`;
  return `is ${existing.what}`;
}

/** The question to ask before replacing, as title and detail. */
export function replaceQuestion(shown: string, existing: Existing): { title: string; detail: string } {
  return {
    title: `${shown} ${describeExisting(existing)}`,
    detail: existing.kind === 'link' ? 'Replace the link with a new file? (what it points to is left alone)' : 'Replace it with a new file?',
  };
}

/** The path is taken by something burrow asks about before replacing (ask, then openUserFile with replace). */
export class UserFileExistsError extends Error {
  constructor(
    readonly path: string,
    readonly existing: Existing,
  ) {
    super(`${path} ${describeExisting(existing)}`);
  }
}

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const NEW_FILE = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | NOFOLLOW;

/**
 * Opens `file` for writing as a new 0600 file. Something there: UserFileExistsError, unless
 * `replace` (the person was asked): then a file or a link is removed first; a directory, FIFO,
 * socket or device never is (an Error saying what it is).
 */
export function openUserFile(file: string, options: { replace?: boolean } = {}): number {
  const existing = existingAt(file);
  if (existing !== null) {
    if (existing.kind === 'other') throw new Error(`${file} ${describeExisting(existing)}, not a file`);
    if (!options.replace) throw new UserFileExistsError(file, existing);
    fs.unlinkSync(file);
  }
  try {
    const fd = fs.openSync(file, NEW_FILE, 0o600);
    // the mode asked for is masked by the umask: 0600 exactly
    fs.fchmodSync(fd, 0o600);
    return fd;
  } catch (error) {
    // planted between the check and the open
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new UserFileExistsError(file, existingAt(file) ?? { kind: 'file' });
    throw error;
  }
}
