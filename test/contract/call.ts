import { request } from 'undici';
import type { RunningEmulator } from '../../src/emulator/server';

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** The parsed body, or undefined when it is empty or not JSON. */
  json: unknown;
}

/**
 * One raw request to the emulator's management origin. `body` is sent as JSON unless it is a
 * string (sent as is); `key` overrides the AccessKey (null sends none).
 */
export async function call(emu: RunningEmulator, method: string, path: string, options: { body?: unknown; key?: string | null } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? emu.info.accessKey : options.key;
  if (key !== null) headers.AccessKey = key;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await request(emu.info.baseUrl + path, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), text, json };
}

export const obj = (v: unknown): Record<string, unknown> => v as Record<string, unknown>;
