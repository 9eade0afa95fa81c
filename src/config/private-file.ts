import fs from 'node:fs';
import path from 'node:path';

/** Writes a file only its owner can read (0600), creating its folder 0700. Atomic via rename. */
export function writePrivateFile(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

/** Appends to a file that is created 0600; an existing file is tightened to 0600. */
export function appendPrivateFile(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const fd = fs.openSync(file, 'a', 0o600);
  try {
    fs.fchmodSync(fd, 0o600);
    fs.writeSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
}

/** A warning when group or others can read the file, or null. */
export function permissionWarning(file: string): string | null {
  try {
    const mode = fs.statSync(file).mode & 0o777;
    if (mode & 0o077) {
      return `${file} is readable by other users (mode ${mode.toString(8).padStart(3, '0')}); it holds credentials: run chmod 600 ${file}`;
    }
  } catch {
    // a missing file has no permissions to warn about
  }
  return null;
}
