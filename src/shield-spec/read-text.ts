import { parse as parseYaml } from 'yaml';
import { openApiFromValue, plainTree, SpecProblem, type JsonValue, type OpenApiDocument } from './document';
import { checkDocument, type PlanLimits, type SpecCheck } from './limits';

/**
 * Text to document. The only module of the checker that needs the YAML parser: the console and
 * the CLI import it with `await import()` when a file is checked, so start-up never loads yaml.
 */

/** JSON when the first non-blank character is "{", YAML otherwise. */
export function parseText(text: string): { value: JsonValue; format: 'json' | 'yaml' } {
  if (text.trim() === '') throw new SpecProblem('the specification is empty');
  if (text.trimStart().startsWith('{')) {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new SpecProblem(`not valid JSON: ${(e as Error).message}`);
    }
    return { value: plainTree(raw), format: 'json' };
  }
  let raw: unknown;
  try {
    // logLevel 'error': errors still throw, warnings are not printed (the console owns the terminal)
    raw = parseYaml(text, { maxAliasCount: 100, logLevel: 'error' });
  } catch (e) {
    throw new SpecProblem(`neither JSON nor valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  return { value: plainTree(raw), format: 'yaml' };
}

/** Parses and validates an OpenAPI 3 document; throws SpecProblem with the reason. */
export function readOpenApi(text: string): OpenApiDocument {
  const { value, format } = parseText(text);
  return openApiFromValue(value, format);
}

/** Reads and measures the text of a spec; throws SpecProblem when it is not a usable document. */
export function checkSpecText(text: string, limits: PlanLimits): SpecCheck {
  return checkDocument(readOpenApi(text), limits);
}
