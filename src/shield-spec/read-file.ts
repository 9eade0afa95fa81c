import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Files bigger than this are not read: no OpenAPI document of a real API is this large. */
export const MAX_SPEC_FILE_BYTES = 8 * 1024 * 1024;

/** A spec file could not be read; the message names the file and says what to do. */
export class SpecFileError extends Error {
  override readonly name = 'SpecFileError';
}

export interface SpecFile {
  /** The absolute path that was read. */
  path: string;
  text: string;
  bytes: number;
}

/** "~/x.yaml" and relative paths (from `cwd`) to an absolute path. */
export function resolveSpecPath(input: string, cwd: string, home = os.homedir()): string {
  const p = input.trim();
  if (p === '~') return home;
  if (p.startsWith('~/')) return path.join(home, p.slice(2));
  return path.resolve(cwd, p);
}

/** Reads an OpenAPI file (JSON or YAML) as UTF-8 text, with a clear message for every failure. */
export async function readSpecFile(input: string, cwd = process.cwd()): Promise<SpecFile> {
  if (input.trim() === '') throw new SpecFileError('no file given: type the path of an OpenAPI 3 file (.json, .yaml or .yml)');
  const file = resolveSpecPath(input, cwd);
  let stat;
  try {
    stat = await fs.stat(file);
  } catch (e) {
    throw fileError(e, file);
  }
  if (stat.isDirectory()) throw new SpecFileError(`${file} is a directory: give the path of an OpenAPI file inside it`);
  if (!stat.isFile()) throw new SpecFileError(`${file} is not a regular file`);
  if (stat.size > MAX_SPEC_FILE_BYTES) {
    throw new SpecFileError(
      `${file} is ${(stat.size / 1048576).toFixed(1)} MiB: larger than the ${MAX_SPEC_FILE_BYTES / 1048576} MiB burrow reads as a specification`,
    );
  }
  let buf: Buffer;
  try {
    buf = await fs.readFile(file);
  } catch (e) {
    throw fileError(e, file);
  }
  if (buf.includes(0)) throw new SpecFileError(`${file} is a binary file, not an OpenAPI document (JSON or YAML text)`);
  return { path: file, text: buf.toString('utf8'), bytes: buf.length };
}

function fileError(e: unknown, file: string): SpecFileError {
  const code = (e as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return new SpecFileError(`no such file: ${file}`);
    case 'ENOTDIR':
      return new SpecFileError(`no such file: ${file} (a part of the path is not a directory)`);
    case 'EACCES':
    case 'EPERM':
      return new SpecFileError(`cannot read ${file}: permission denied`);
    default:
      return new SpecFileError(`cannot read ${file}: ${(e as Error)?.message ?? String(e)}`);
  }
}
