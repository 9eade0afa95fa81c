import type { AppDetail, AppOverview, ContainerEndpoint, ContainerTemplate, VolumesAnswer } from '../../api/containers-workload';
import { isSecretField, maskSecret } from '../../config/redact';
import type { Column } from '../../text/table-model';
import type { Tone } from '../../text/tone';

/*
 * What an application runs and where, as the region settings editor shows it (read-only): its
 * container templates, its instances by region, its volumes. Pure: the API's answers in, text out.
 */

const isSecretEnv = (name: string) => isSecretField(name) || /(_TOKEN|_KEY|_SECRET|_DSN)$/i.test(name);
/** The server masks secrets with a run of asterisks. */
const isMasked = (value: string) => /\*{4,}/.test(value);

/** An env value as shown: secret-looking names masked here too, whatever the server sent. */
export function envValue(name: string, value: string | null | undefined): string {
  if (value === null || value === undefined) return '(not shown)';
  return isSecretEnv(name) && !isMasked(value) ? maskSecret(value) : value;
}

/** "cdn mc-x.b-cdn.net 443→8080/tcp". */
export function endpointText(e: ContainerEndpoint): string {
  const ports = e.portMappings
    .map((p) => `${p.exposedPort ?? '?'}→${p.containerPort ?? '?'}${p.protocols?.length ? `/${p.protocols.join(',')}` : ''}`)
    .join(' ');
  return [e.type ?? '', e.publicHost ?? '', ports].filter(Boolean).join(' ');
}

const secretCount = (t: ContainerTemplate) => t.environmentVariables.filter((e) => isSecretEnv(e.name) || isMasked(e.value ?? '')).length;

/** "checkout-api  ghcr.io/acme/checkout-api:1.4.2 · 7 env (2 secret) · cdn host 443→8080/tcp". */
export function templateSummary(t: ContainerTemplate): string {
  const env = t.environmentVariables.length;
  const secrets = secretCount(t);
  const parts = [
    t.image ?? `${t.imageName ?? '?'}:${t.imageTag ?? '?'}`,
    `${env} env${secrets ? ` (${secrets} secret)` : ''}`,
    ...t.endpoints.map(endpointText),
    ...(t.volumeMounts.length ? [`mounts ${t.volumeMounts.map((m) => `${m.name}:${m.mountPath ?? '?'}`).join(' ')}`] : []),
  ];
  return `${t.name ?? t.id}  ${parts.join(' · ')}`;
}

/** Instances per region as the overview reports them: region id -> count. */
export function instancesByRegion(overview: AppOverview | null): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of overview?.regions ?? []) out.set(r.region, r.instances ?? r.pods.length);
  return out;
}

/** "DE 2 · UK 2 · 4 of 4 ready" or "none running (inactive)". */
export function instancesSummary(overview: AppOverview | null, status: string | null | undefined): string {
  if (!overview) return 'not loaded';
  const by = instancesByRegion(overview);
  if (by.size === 0) return `none running${status ? ` (${status})` : ''}`;
  const regions = [...by].map(([id, n]) => `${id} ${n}`).join(' · ');
  const desired = overview.desiredInstances ?? [...by.values()].reduce((a, b) => a + b, 0);
  const active = overview.activeInstances?.indicator;
  return active === null || active === undefined ? `${regions} · ${desired} desired` : `${regions} · ${active} of ${desired} ready`;
}

const gb = (n: number | null | undefined) => (n === null || n === undefined ? '?' : `${n} GB`);

/** "index 40 GB on 2 (DE UK) · data 5 GB on 0" or "none". */
export function volumesSummary(volumes: VolumesAnswer | null): string {
  if (!volumes) return 'not loaded';
  if (volumes.items.length === 0) return 'none';
  return volumes.items
    .map((v) => {
      const regions = [...new Set(v.volumeInstances.map((i) => i.region).filter(Boolean))].join(' ');
      return `${v.name ?? v.id ?? '?'} ${gb(v.size)} on ${v.volumeInstances.length}${regions ? ` (${regions})` : ''}`;
    })
    .join(' · ');
}

/** One line of the details list (`i`): a heading or an item under it. */
export interface DetailLine {
  text: string;
  tone?: Tone;
  heading?: boolean;
}

/** Everything read-only about the app, one line each: templates with env and endpoints, instances by region with pods, volumes. */
export function detailLines(app: AppDetail | null, overview: AppOverview | null, volumes: VolumesAnswer | null): DetailLine[] {
  const lines: DetailLine[] = [];
  const head = (text: string) => lines.push({ text, heading: true });
  const item = (text: string, tone?: Tone) => lines.push({ text: `  ${text}`, tone });
  head(`Container templates (${app ? app.containerTemplates.length : 'not loaded'})`);
  for (const t of app?.containerTemplates ?? []) {
    item(`${t.name ?? t.id}  ${t.image ?? ''}${t.imagePullPolicy ? `  pull ${t.imagePullPolicy}` : ''}`);
    for (const e of t.endpoints) item(`  endpoint ${e.displayName ?? e.id}: ${endpointText(e)}${e.isSslEnabled ? ' ssl' : ''}`);
    for (const m of t.volumeMounts) item(`  mount ${m.name} at ${m.mountPath ?? '?'}`);
    for (const e of t.environmentVariables) item(`  ${e.name}=${envValue(e.name, e.value)}`, 'muted');
  }
  head(`Instances by region: ${instancesSummary(overview, app?.status)}`);
  for (const r of overview?.regions ?? []) {
    item(
      `${r.region}${r.isRequired ? ' (required)' : ''}  ${r.instances ?? r.pods.length} instance${(r.instances ?? r.pods.length) === 1 ? '' : 's'}  ${r.status ?? ''}`,
    );
    for (const p of r.pods) item(`  pod ${p.name ?? '?'}  ${p.status ?? ''}`, p.status === 'ready' ? undefined : 'warn');
  }
  head(`Volumes: ${volumes ? volumes.items.length : 'not loaded'}`);
  for (const v of volumes?.items ?? []) {
    item(
      `${v.name ?? v.id ?? '?'}  ${gb(v.size)} each · ${v.attachedInstancesCount ?? '?'} of ${v.totalInstancesCount ?? v.volumeInstances.length} attached · ${gb(v.totalUsage)} used`,
    );
    for (const i of v.volumeInstances)
      item(
        `  ${i.region ?? '?'}  ${i.status ?? ''}  ${gb(i.usage)} of ${gb(i.size)}  pod ${i.attachedPods?.[0] ?? '-'}`,
        i.status === 'attached' ? undefined : 'warn',
      );
  }
  return lines;
}

export const detailColumns: Column<DetailLine>[] = [
  { id: 'text', header: 'APPLICATION (read-only)', flex: 1, cell: (l) => ({ text: l.text, tone: l.heading ? 'accent' : l.tone }) },
];
