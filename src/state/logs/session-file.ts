import fs from 'node:fs';
import path from 'node:path';
import { stateDir } from '../../config/paths';
import { writePrivateFile } from '../../config/private-file';
import type { Mark } from '../../log-records/marks';
import { FILTER_FIELDS, type FilterDraft } from './filter-form';
import type { LocalMode } from './view-model';

/**
 * Logs sessions (as lnav keeps them): what a person set up on a logs screen survives a quit and
 * comes back on the next start. One file per profile, `<stateDir>/sessions/<profile>.json`, mode
 * 0600, holding per zone set ("1058 1411") its server filters, local pattern, alert rules and
 * marks, and which zone set was open at the quit. A damaged file or one from another version is
 * reported and ignored (the next save replaces it); `--fresh` ignores it too.
 */

export const SESSION_VERSION = 1;

/** Zone sets kept at most: the ones saved longest ago go first. */
export const MAX_ZONE_SETS = 50;

export interface ZoneSetSession {
  /** The server filters (the time window is not kept: it is relative to when it was set). */
  filter: Partial<FilterDraft>;
  local: { pattern: string | null; mode: LocalMode; context: number };
  alerts: string[];
  marks: Mark[];
  /** When it was saved (epoch ms): the oldest go first past MAX_ZONE_SETS. */
  savedAt?: number;
}

interface SessionData {
  version: number;
  /** The zone set of the logs screen open at the quit, or null. */
  open: string | null;
  zoneSets: Record<string, ZoneSetSession>;
}

const empty = (): SessionData => ({ version: SESSION_VERSION, open: null, zoneSets: {} });

/** The session file of a profile (the emulator's apart from the platform's). */
export function sessionPath(profile: string | null, emulator: boolean, env: Record<string, string | undefined> = process.env): string {
  const name = (profile ?? (emulator ? 'emulator' : 'default')).replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'default';
  return path.join(stateDir(env), 'sessions', `${name}.json`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function zoneSetOf(v: unknown): ZoneSetSession | null {
  if (!isObject(v)) return null;
  const filter: Partial<FilterDraft> = {};
  if (isObject(v.filter)) {
    for (const f of FILTER_FIELDS) {
      const value = v.filter[f.id];
      if (typeof value === 'string' && f.id !== 'from' && f.id !== 'to') filter[f.id] = value;
    }
  }
  const local = isObject(v.local) ? v.local : {};
  const marks = Array.isArray(v.marks)
    ? v.marks.flatMap((m): Mark[] =>
        isObject(m) && typeof m.key === 'string' && typeof m.time === 'number' && Number.isFinite(m.time) && typeof m.zone === 'number'
          ? [{ key: m.key, zone: m.zone, time: m.time, status: typeof m.status === 'number' ? m.status : 0, path: typeof m.path === 'string' ? m.path : '' }]
          : [],
      )
    : [];
  return {
    filter,
    local: {
      pattern: typeof local.pattern === 'string' && local.pattern.trim() !== '' ? local.pattern : null,
      mode: local.mode === 'highlight' ? 'highlight' : 'filter',
      context: typeof local.context === 'number' && Number.isInteger(local.context) && local.context >= 0 ? Math.min(local.context, 50) : 0,
    },
    alerts: strings(v.alerts),
    marks,
    savedAt: typeof v.savedAt === 'number' && Number.isFinite(v.savedAt) ? v.savedAt : 0,
  };
}

/** Reads a session file: its data, or why it is not used (a message for the person). */
export function readSessionFile(file: string): { data: SessionData; warning: string | null } {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch {
    return { data: empty(), warning: null };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { data: empty(), warning: `logs session file damaged (not JSON): starting clean (${file})` };
  }
  if (!isObject(parsed) || parsed.version !== SESSION_VERSION) {
    const v = isObject(parsed) ? parsed.version : undefined;
    return {
      data: empty(),
      warning: `logs session file from another burrow version (${typeof v === 'number' ? `version ${v}` : 'no version'}): starting clean (${file})`,
    };
  }
  const zoneSets: Record<string, ZoneSetSession> = {};
  if (isObject(parsed.zoneSets)) {
    for (const [key, v] of Object.entries(parsed.zoneSets)) {
      const z = zoneSetOf(v);
      if (z && /^\d+( \d+)*$/.test(key)) zoneSets[key] = z;
    }
  }
  const open = typeof parsed.open === 'string' && /^[\d ,]+$/.test(parsed.open) ? parsed.open : null;
  return { data: { version: SESSION_VERSION, open, zoneSets }, warning: null };
}

/** The sessions of one console run: read once at the start, written as zone sets are left and at the quit. */
export class LogsSessions {
  private data: SessionData;
  /** Why the file was not used, for the console to show. */
  readonly warning: string | null;

  constructor(
    readonly file: string,
    fresh: boolean,
  ) {
    const read = fresh ? { data: empty(), warning: null } : readSessionFile(file);
    this.data = read.data;
    this.warning = read.warning;
  }

  /** The zone set open at the last quit ("1058 1411"), or null. */
  get open(): string | null {
    return this.data.open;
  }

  zoneSet(key: string): ZoneSetSession | null {
    return this.data.zoneSets[key] ?? null;
  }

  saveZoneSet(key: string, session: ZoneSetSession, now = Date.now()): void {
    this.data.zoneSets[key] = { ...session, savedAt: now };
    const keys = Object.keys(this.data.zoneSets);
    if (keys.length > MAX_ZONE_SETS) {
      const oldest = keys.sort((a, b) => (this.data.zoneSets[a]!.savedAt ?? 0) - (this.data.zoneSets[b]!.savedAt ?? 0));
      for (const k of oldest.slice(0, keys.length - MAX_ZONE_SETS)) delete this.data.zoneSets[k];
    }
    this.write();
  }

  setOpen(open: string | null): void {
    this.data.open = open;
    this.write();
  }

  private write(): void {
    try {
      writePrivateFile(this.file, `${JSON.stringify(this.data)}\n`);
    } catch {
      // a session that cannot be saved (read-only home) costs the next start its setup, nothing more
    }
  }
}
