import type { ContainerLimits, Region, RegionSettings, RegionSettingsUpdate } from '../api/containers';
import type { FieldError } from '../api/errors';

/** One node selector row of the editor (a flat string -> string map on the platform). */
export interface SelectorRow {
  key: string;
  value: string;
}

/**
 * The region settings being edited. GET region-settings does not return nodeSelectors, so the
 * editor cannot show the current ones: `knownSelectors` is what the platform has when burrow
 * sent them itself in this session (else null), and `selectorsTouched` says they will be sent.
 */
export interface RegionDraft {
  allowed: string[];
  required: string[];
  maxAllowedRegions: number | null;
  selectors: SelectorRow[];
  selectorsTouched: boolean;
  knownSelectors: SelectorRow[] | null;
}

/** Where a message is shown in the editor: next to one of its fields, or on its own line. */
export type DraftField = 'allowed' | 'required' | 'max' | 'selectors' | 'general';
export type FieldMessages = Partial<Record<DraftField, string[]>>;

/** A fresh draft of `settings`; `knownSelectors` are the node selectors burrow last sent, if any. */
export function draftFrom(settings: RegionSettings, knownSelectors: SelectorRow[] | null = null): RegionDraft {
  return {
    allowed: [...settings.allowedRegionIds],
    required: [...settings.requiredRegionIds],
    maxAllowedRegions: settings.maxAllowedRegions,
    selectors: knownSelectors ? knownSelectors.map((s) => ({ ...s })) : [],
    selectorsTouched: false,
    knownSelectors: knownSelectors ? knownSelectors.map((s) => ({ ...s })) : null,
  };
}

const toggle = (list: readonly string[], id: string): string[] => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);

export function toggleAllowed(d: RegionDraft, id: string): RegionDraft {
  return { ...d, allowed: toggle(d.allowed, id) };
}

export function toggleRequired(d: RegionDraft, id: string): RegionDraft {
  return { ...d, required: toggle(d.required, id) };
}

/**
 * Moves max allowed regions by `delta`, between 1 and `ceiling` (the account limit, when known).
 * From "no limit" (null) the first step lands on the number of allowed regions.
 * The platform treats null as "leave as it is", so burrow never offers to go back to null.
 */
export function bumpMax(d: RegionDraft, delta: number, ceiling: number | null): RegionDraft {
  const top = ceiling ?? 1000;
  const start = d.maxAllowedRegions ?? Math.min(top, Math.max(1, d.allowed.length));
  const next = d.maxAllowedRegions === null ? start : start + delta;
  return { ...d, maxAllowedRegions: Math.min(top, Math.max(1, next)) };
}

/** Adds (index null) or replaces a node selector row. */
export function putSelector(d: RegionDraft, index: number | null, row: SelectorRow): RegionDraft {
  const selectors = [...d.selectors];
  const clean = { key: row.key.trim(), value: row.value };
  if (index === null || index < 0 || index >= selectors.length) selectors.push(clean);
  else selectors[index] = clean;
  return { ...d, selectors, selectorsTouched: true };
}

export function deleteSelector(d: RegionDraft, index: number): RegionDraft {
  if (index < 0 || index >= d.selectors.length) return d;
  return { ...d, selectors: d.selectors.filter((_, i) => i !== index), selectorsTouched: true };
}

function add(out: FieldMessages, field: DraftField, message: string): void {
  (out[field] ??= []).push(message);
}

export function hasMessages(m: FieldMessages): boolean {
  return Object.values(m).some((list) => (list?.length ?? 0) > 0);
}

/**
 * Checks a draft before anything is sent, with messages that say what is allowed:
 * at least one allowed region, only regions of the live list, required regions within the
 * allowed ones, counts within the account limit of regions per application, and max allowed
 * regions from 1 to that limit and not below the number of required regions.
 */
export function validateDraft(d: RegionDraft, limits: ContainerLimits | null, regions: readonly Region[] | null): FieldMessages {
  const out: FieldMessages = {};
  const limit = limits?.maxNumberOfRegionsPerApplication ?? null;
  if (d.allowed.length === 0) add(out, 'allowed', 'allow at least one region (space on a region)');
  if (regions && regions.length > 0) {
    const known = new Set(regions.map((r) => r.id));
    const unknownAllowed = d.allowed.filter((id) => !known.has(id));
    if (unknownAllowed.length) add(out, 'allowed', `not in the region list: ${unknownAllowed.join(', ')}`);
    const unknownRequired = d.required.filter((id) => !known.has(id));
    if (unknownRequired.length) add(out, 'required', `not in the region list: ${unknownRequired.join(', ')}`);
  }
  const outside = d.required.filter((id) => !d.allowed.includes(id));
  if (outside.length) add(out, 'required', `required regions must also be allowed: ${outside.join(', ')}`);
  if (limit !== null && d.required.length > limit) {
    add(out, 'required', `${d.required.length} required regions is over the account limit of ${limit} per application`);
  }
  const max = d.maxAllowedRegions;
  if (max !== null) {
    if (!Number.isInteger(max) || max < 1) add(out, 'max', `max allowed regions must be a whole number of at least 1, got ${max}`);
    else if (limit !== null && max > limit) add(out, 'max', `max allowed regions ${max} is over the account limit of ${limit} per application`);
    if (max < d.required.length) add(out, 'max', `max allowed regions ${max} is below the ${d.required.length} required regions`);
  }
  const seen = new Set<string>();
  d.selectors.forEach((s, i) => {
    if (s.key.trim() === '') add(out, 'selectors', `row ${i + 1}: a node selector needs a key`);
    else if (seen.has(s.key)) add(out, 'selectors', `row ${i + 1}: key "${s.key}" is listed twice`);
    seen.add(s.key);
  });
  return out;
}

/** Regions that are required but report no capacity: the platform may refuse them (not blocking). */
export function capacityWarnings(d: RegionDraft, regions: readonly Region[] | null): string[] {
  if (!regions) return [];
  return d.required.filter((id) => regions.find((r) => r.id === id)?.hasCapacity === false);
}

/** The PUT body. nodeSelectors only when changed: sending them replaces the whole set. */
export function draftBody(d: RegionDraft): RegionSettingsUpdate {
  const body: RegionSettingsUpdate = {
    allowedRegionIds: [...d.allowed],
    requiredRegionIds: [...d.required],
    maxAllowedRegions: d.maxAllowedRegions,
  };
  if (d.selectorsTouched) body.nodeSelectors = Object.fromEntries(d.selectors.map((s) => [s.key, s.value]));
  return body;
}

/** The current settings in the shape of the body, for the confirm diff. */
export function baseForDiff(settings: RegionSettings, d: RegionDraft): RegionSettingsUpdate {
  const base: RegionSettingsUpdate = {
    allowedRegionIds: [...settings.allowedRegionIds],
    requiredRegionIds: [...settings.requiredRegionIds],
    maxAllowedRegions: settings.maxAllowedRegions,
  };
  // Selectors burrow sent earlier diff key by key; unknown ones show as all added.
  if (d.knownSelectors && d.selectorsTouched) base.nodeSelectors = Object.fromEntries(d.knownSelectors.map((s) => [s.key, s.value]));
  return base;
}

/** True when the draft would change something compared with `settings`. */
export function isDirty(d: RegionDraft, settings: RegionSettings): boolean {
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
  return (
    !same(d.allowed, settings.allowedRegionIds) ||
    !same(d.required, settings.requiredRegionIds) ||
    d.maxAllowedRegions !== settings.maxAllowedRegions ||
    d.selectorsTouched
  );
}

/**
 * Server validation errors (errors[] field/message) mapped to the editor's fields. Field names
 * are matched loosely ("allowedRegionIds", "AllowedRegionIds", "$.allowedRegionIds",
 * "nodeSelectors.tier"); anything else is shown on the general line.
 */
export function mapServerErrors(errors: readonly FieldError[], fallback: string | null = null): FieldMessages {
  const out: FieldMessages = {};
  for (const e of errors) {
    const name = (e.field ?? '').replace(/^\$?\.?(body\.)?/i, '').toLowerCase();
    const field: DraftField = name.startsWith('allowedregionids')
      ? 'allowed'
      : name.startsWith('requiredregionids')
        ? 'required'
        : name.startsWith('maxallowedregions')
          ? 'max'
          : name.startsWith('nodeselectors')
            ? 'selectors'
            : 'general';
    add(out, field, field === 'general' && e.field ? `${e.field}: ${e.message}` : e.message);
  }
  if (!hasMessages(out) && fallback) add(out, 'general', fallback);
  return out;
}
