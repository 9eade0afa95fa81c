import fs from 'node:fs';
import path from 'node:path';

const CHUNK = 64 * 1024;

/** `.output FILE`: results written to a file (0600) instead of the screen, until `.output` alone. */
export class OutputFile {
  private fd: number | null = null;

  get open(): boolean {
    return this.fd !== null;
  }

  /** Opens (truncates) the file; throws the file system's error. */
  start(cwd: string, file: string): void {
    this.close();
    this.fd = fs.openSync(path.resolve(cwd, file), 'w', 0o600);
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
