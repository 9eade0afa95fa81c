import { ApiError } from '../api/errors';
import { INT32_MAX } from '../api/input-checks';
import { SpecProblem, type OpenApiDocument } from '../shield-spec/document';
import { checkDocument, problemText, type SpecCheck } from '../shield-spec/limits';
import { readSpecFile, SpecFileError } from '../shield-spec/read-file';
import { connectNonInteractive } from '../runtime/connect';
import { parseIdArg } from './resources/parse-id';
import { checkJson, checkTable } from './shield-check-output';
import { MUTATION_OPTIONS, MUTATION_USAGE } from './mutation';
import { shieldGuardian } from './shield-guardian';
import { shieldSpecUpload } from './shield-spec-upload';
import { type Command, type CommandContext, UsageError } from './types';
import { jsonTerminalSafe, terminalSafe, terminalSafeLines } from '../text/terminal-safe';

const USAGE = `burrow shield check-spec FILE --zone ID [-o table|json] [--demo]
burrow shield guardian ZONE --set NAME=VALUE [--set ...] [--dry-run] [--yes] [-o json]
burrow shield spec upload ZONE FILE [--force] [--dry-run] [--yes] [-o json]

guardian changes API Guardian settings of a zone, only the ones given (PATCH): NAME is isEnabled
(true/false, on/off), executionMode (Log, Block), bodyLimitAction or unmatchedPathAction (Block,
Log, Ignore); an enum by name or number. A setting already at that value is not sent.

spec upload checks FILE against the zone's plan limits as check-spec does, then uploads it (POST),
or replaces the zone's spec (PATCH). Over a limit nothing is sent (exit 1) unless --force.

${MUTATION_USAGE}

check-spec:
Checks an OpenAPI 3 file (JSON or YAML) against the API Guardian plan limits of a shield zone,
locally, before you upload it: endpoints, fields per schema, nesting depth (through $ref, items
and properties), schema nodes in components/schemas, and total regex length. Prints measured vs
allowed for each limit, and one sentence per limit that is exceeded.

Exit status: 0 within the limits, 1 over a limit, 2 when the file or the zone cannot be used
(missing or unreadable file, not an OpenAPI 3 document, unknown zone, zone without API Guardian,
limits that cannot be read).`;

async function checkSpec(ctx: CommandContext, fileArg: string): Promise<number> {
  const zoneArg = ctx.values.zone;
  if (typeof zoneArg !== 'string' || zoneArg.trim() === '')
    throw new UsageError('--zone ID is required: the shield zone whose plan limits the file is checked against (burrow get shield-zones lists them)');
  const zoneId = parseIdArg('--zone', zoneArg, INT32_MAX);
  const format = ctx.settings.output ?? 'table';

  let doc: OpenApiDocument;
  let file: string;
  try {
    const read = await readSpecFile(fileArg);
    file = read.path;
    // the YAML parser loads only here, not with every burrow command
    const { readOpenApi } = await import('../shield-spec/read-text');
    doc = readOpenApi(read.text);
  } catch (e) {
    if (e instanceof SpecFileError) throw new UsageError(e.message);
    if (e instanceof SpecProblem) throw new UsageError(`${fileArg} is not a usable OpenAPI 3 document: ${e.message}`);
    throw e;
  }

  const session = await connectNonInteractive(ctx.settings, ctx.io, Boolean(ctx.values.demo));
  let limits;
  try {
    limits = (await session.api.shield.getApiGuardian(zoneId)).configuration;
  } catch (e) {
    if (e instanceof ApiError) {
      ctx.io.stderr.write(`burrow: cannot read the API Guardian limits of shield zone ${zoneId}: ${terminalSafe(e.message)}\n`);
      return 2;
    }
    throw e;
  } finally {
    await session.close();
  }

  let check: SpecCheck;
  try {
    check = checkDocument(doc, limits);
  } catch (e) {
    // a request body or response given as a circular $ref chain shows up while measuring
    if (e instanceof SpecProblem) throw new UsageError(`${fileArg} is not a usable OpenAPI 3 document: ${e.message}`);
    throw e;
  }
  const problems = check.checks.filter((c) => c.over).map(problemText);
  if (format === 'json') {
    ctx.io.stdout.write(`${jsonTerminalSafe(JSON.stringify(checkJson(check, file, zoneId), null, 2))}\n`);
  } else {
    const head = `${check.title} ${check.version} (${doc.format === 'json' ? 'JSON' : 'YAML'}, ${file}) against the API Guardian limits of shield zone ${zoneId}`;
    const verdict = check.withinLimits
      ? 'Within every limit: the zone would accept this specification.'
      : `Over ${problems.length === 1 ? 'a limit' : `${problems.length} limits`}: the zone would refuse this specification.\n${problems.map((p) => `  - ${p}`).join('\n')}`;
    ctx.io.stdout.write(terminalSafeLines(`${head}\n\n${checkTable(check)}\n${verdict}\n`));
  }
  return check.withinLimits ? 0 : 1;
}

const SUBCOMMANDS = 'check-spec FILE --zone ID, guardian ZONE --set NAME=VALUE, spec upload ZONE FILE';

export const shieldCommand: Command = {
  name: 'shield',
  summary: 'shield tools: check-spec, guardian (change settings), spec upload',
  usage: USAGE,
  options: { zone: { type: 'string' }, set: { type: 'string', multiple: true }, force: { type: 'boolean' }, ...MUTATION_OPTIONS },
  outputs: ['table', 'json'],
  async run(ctx) {
    const [sub, file, ...rest] = ctx.args;
    if (sub === 'guardian') {
      if (file === undefined) throw new UsageError('burrow shield guardian needs ZONE: the shield zone id (burrow get shield-zones lists them)');
      if (rest.length) throw new UsageError(`unexpected arguments: ${rest.join(' ')} (settings go in --set NAME=VALUE)`);
      return shieldGuardian(ctx, file);
    }
    if (sub === 'spec') {
      const [zone, specFile, ...more] = rest;
      if (file !== 'upload') throw new UsageError(`burrow shield spec ${file ?? ''}: the spec command is "spec upload ZONE FILE"`.replace('  ', ' '));
      if (zone === undefined || specFile === undefined) throw new UsageError('burrow shield spec upload needs ZONE and FILE');
      if (more.length) throw new UsageError(`unexpected arguments: ${more.join(' ')} (upload one file at a time)`);
      return shieldSpecUpload(ctx, zone, specFile);
    }
    if (sub !== 'check-spec') throw new UsageError(`${sub === undefined ? 'which shield command?' : `unknown shield command "${sub}":`} ${SUBCOMMANDS}`);
    if (file === undefined) throw new UsageError('burrow shield check-spec needs FILE: the OpenAPI 3 file (JSON or YAML) to check');
    if (rest.length) throw new UsageError(`unexpected arguments: ${rest.join(' ')} (check one file at a time)`);
    return checkSpec(ctx, file);
  },
};
