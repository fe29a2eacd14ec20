/**
 * Parsing JSON and YAML request bodies and patch documents within the bounds of
 * `api/nesting.ts`: the text is scanned (without recursion) before the parser sees it, and the
 * parsed value is checked before anything recursive touches it. Every failure is an ApiError
 * 400 BadRequest, as upstream answers a body its decoder rejects
 * (k8s.io/apiserver pkg/endpoints/handlers, "couldn't decode ...").
 */
import { parse as parseYaml } from 'yaml';
import { jsonTextDepth, MAX_NESTING_DEPTH, valueProblem } from '../../api/nesting.js';
import { yamlDepthBound } from '../../api/yaml-depth.js';
import { badRequest, type ApiError } from '../../errors/api-error.js';
import { errorMessage } from '../../api/error-message.js';

/** Most YAML alias nodes a document may use (the `yaml` package's default, made explicit). */
export const MAX_YAML_ALIASES = 100;

/**
 * YAML texts whose estimated nesting (see `yamlDepthBound`, at most twice the real depth plus
 * a little) passes this are refused before parsing. The `yaml` parser recursed safely to 786
 * levels in our measurements; this keeps it under 200.
 */
export const MAX_YAML_DEPTH_BOUND = 2 * MAX_NESTING_DEPTH;

const tooDeep = (what: string): ApiError =>
  badRequest(`couldn't decode ${what}: exceeded max depth of ${MAX_NESTING_DEPTH} nested objects and arrays`);

/** Reject a parsed value that is too deep, too large or not plain JSON. Throws ApiError 400. */
export function checkDecodedValue(value: unknown, what: string): void {
  const problem = valueProblem(value);
  if (!problem) return;
  if (problem.reason === 'depth') throw tooDeep(what);
  throw badRequest(`couldn't decode ${what}: ${problem.message}${problem.at ? ` at ${problem.at}` : ''}`);
}

/**
 * Parse JSON text (`what` names it in messages: "the request body", "the patch"). Throws
 * ApiError 400 for malformed text, nesting deeper than MAX_NESTING_DEPTH or numbers out of
 * range (`1e400`).
 */
export function parseJsonText(raw: string, what: string): unknown {
  if (jsonTextDepth(raw) > MAX_NESTING_DEPTH) throw tooDeep(what);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    throw badRequest(`couldn't decode ${what}: ${errorMessage(err).split('\n')[0]}`);
  }
  checkDecodedValue(value, what);
  return value;
}

/**
 * Parse YAML text (one document; JSON is YAML too). Throws ApiError 400 for malformed text,
 * nesting deeper than the bounds above, more than MAX_YAML_ALIASES alias expansions, a value
 * that contains itself, or values without a JSON form (`.inf`, `.nan`), and, when
 * `uniqueKeys`, for a key repeated within one mapping (otherwise the last value is kept).
 */
export function parseYamlText(raw: string, what: string, uniqueKeys = true): unknown {
  if (yamlDepthBound(raw, MAX_YAML_DEPTH_BOUND) > MAX_YAML_DEPTH_BOUND) throw tooDeep(what);
  let value: unknown;
  try {
    value = parseYaml(raw, {
      maxAliasCount: MAX_YAML_ALIASES,
      resolveKnownTags: false,
      uniqueKeys,
      logLevel: 'error',
    });
  } catch (err) {
    throw badRequest(`couldn't decode ${what}: ${errorMessage(err).split('\n')[0]}`);
  }
  checkDecodedValue(value, what);
  return value;
}
