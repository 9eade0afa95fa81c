/**
 * burrow's local API Guardian spec checker: reads an OpenAPI file and measures it against a
 * zone's plan limits, so the user knows before uploading whether (and why) it would be refused.
 * Used by the shield screen and by `burrow shield check-spec`.
 *
 * This index loads the YAML parser. The console and the CLI import the yaml-free modules
 * (document, measure, limits, read-file) directly and read-text.ts only with `await import()`.
 */
export { openApiFromValue, SpecProblem, type OpenApiDocument, type JsonObject, type JsonValue } from './document';
export { checkSpecText, parseText, readOpenApi } from './read-text';
export { measureDocument, DEPTH_CAP, type SpecMeasurement } from './measure';
export {
  checkDocument,
  compareWithLimits,
  measuredText,
  problemText,
  LIMIT_LABELS,
  type LimitCheck,
  type LimitName,
  type PlanLimits,
  type SpecCheck,
} from './limits';
export { readSpecFile, resolveSpecPath, SpecFileError, MAX_SPEC_FILE_BYTES, type SpecFile } from './read-file';
