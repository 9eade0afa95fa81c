/**
 * burrow's local API Guardian spec checker: reads an OpenAPI file and measures it against a
 * zone's plan limits, so the user knows before uploading whether (and why) it would be refused.
 * Used by the shield screen and by `burrow shield check-spec`.
 */
export { readOpenApi, SpecProblem, type OpenApiDocument, type JsonObject, type JsonValue } from './document';
export { measureDocument, DEPTH_CAP, type SpecMeasurement } from './measure';
export {
  checkDocument, checkSpecText, compareWithLimits, measuredText, problemText, LIMIT_LABELS,
  type LimitCheck, type LimitName, type PlanLimits, type SpecCheck,
} from './limits';
export { readSpecFile, resolveSpecPath, SpecFileError, MAX_SPEC_FILE_BYTES, type SpecFile } from './read-file';
