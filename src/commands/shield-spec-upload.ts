import { INT32_MAX } from '../api/input-checks';
import type { ApiGuardian } from '../api/shield';
import { SpecProblem } from '../shield-spec/document';
import { checkDocument, problemText, type SpecCheck } from '../shield-spec/limits';
import { readSpecFile, SpecFileError } from '../shield-spec/read-file';
import { specChange } from '../state/shield-spec-change';
import { connectNonInteractive } from '../runtime/connect';
import { checkCanConfirm, refuseReadOnly, runMutation } from './mutation';
import { parseIdArg } from './resources/parse-id';
import { checkTable } from './shield-check-output';
import { readGuardian } from './shield-guardian';
import { type CommandContext, UsageError } from './types';

const usable = (fileArg: string, e: unknown): never => {
  if (e instanceof SpecFileError) throw new UsageError(e.message);
  if (e instanceof SpecProblem) throw new UsageError(`${fileArg} is not a usable OpenAPI 3 document: ${e.message}`);
  throw e;
};

/**
 * Uploads (POST) or replaces (PATCH) a zone's OpenAPI spec, after the plan-limit check the console
 * runs: a file over the limits is not sent (exit 1) unless --force.
 */
export async function shieldSpecUpload(ctx: CommandContext, zoneArg: string, fileArg: string): Promise<number> {
  const zoneId = parseIdArg('ZONE', zoneArg, INT32_MAX);
  const force = Boolean(ctx.values.force);
  let read;
  let doc;
  try {
    read = await readSpecFile(fileArg);
    const { readOpenApi } = await import('../shield-spec/read-text');
    doc = readOpenApi(read.text);
  } catch (e) {
    return usable(fileArg, e);
  }
  refuseReadOnly(ctx, `uploading a spec to shield zone ${zoneId}`);
  checkCanConfirm(ctx);
  const session = await connectNonInteractive(ctx.settings, ctx.io, Boolean(ctx.values.demo));
  try {
    const guardian: ApiGuardian = await readGuardian(session, zoneId);
    let check: SpecCheck;
    try {
      check = checkDocument(doc, guardian.configuration);
    } catch (e) {
      return usable(fileArg, e);
    }
    const report = ctx.settings.output === 'json' ? ctx.io.stderr : ctx.io.stdout;
    if (!check.withinLimits) {
      const problems = check.checks
        .filter((c) => c.over)
        .map((c) => `  - ${problemText(c)}`)
        .join('\n');
      report.write(
        `${checkTable(check)}${force ? 'Over the plan limits; sending anyway (--force):' : 'Not sent: over the plan limits, the zone would refuse it (--force sends it anyway):'}\n${problems}\n`,
      );
      if (!force) return 1;
    }
    const change = specChange(zoneId, guardian, read, check);
    return await runMutation(ctx, {
      title: change.title,
      before: change.before,
      after: change.after,
      patch: true,
      send: () => (change.replace ? session.api.shield.replaceSpec(zoneId, read.text) : session.api.shield.uploadSpec(zoneId, read.text)),
      answer: (g) => g,
      done: (g) =>
        `spec ${change.replace ? 'replaced' : 'uploaded'}: ${g.configuration.title ?? '?'} ${g.configuration.version ?? ''}, ${g.endpoints.length} endpoints`,
      check: `burrow get api-guardian ${zoneId}`,
    });
  } finally {
    await session.close();
  }
}
