import fs from 'node:fs';
import path from 'node:path';
import { openUserFile } from '../../config/user-file';

const CHUNK = 64 * 1024;

/** `.output FILE`: results written to a file (0600) instead of the screen, until `.output` alone. */
export class OutputFile {
  private fd: number | null = null;

  get open(): boolean {
    return this.fd !== null;
  }

  /**
   * Opens the file as a new 0600 file, never through a link (config/user-file.ts); something
   * there is replaced only with `replace` (the person was asked), else UserFileExistsError.
   */
  start(cwd: string, file: string, replace = false): void {
    this.close();
    this.fd = openUserFile(path.resolve(cwd, file), { replace });
  }

  close(): void {
    if (this.fd === null) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = null;
  }

  /** Writes the lines (each ends with a newline) in chunks; returns how many were written. */
  write(lines: Iterable<string>): number {
    if (this.fd === null) return 0;
    let n = 0;
    let chunk = '';
    for (const line of lines) {
      chunk += `${line}\n`;
      n++;
      if (chunk.length > CHUNK) {
        fs.writeSync(this.fd, chunk);
        chunk = '';
      }
    }
    if (chunk) fs.writeSync(this.fd, chunk);
    return n;
  }
}
