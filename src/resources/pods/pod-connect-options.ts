/**
 * The query options of the pod connect subresources and what is passed on to the node agent:
 * PodLogOptions (checked as upstream 1.10 ValidatePodLogOptions, then LogLocation's params) and
 * PodExecOptions / PodAttachOptions / PodPortForwardOptions (upstream streamParams: `input`,
 * `output`, `error`, `tty`, `command`, `port`). Query values decode as upstream's parameter
 * codec: booleans are true unless `0` or `false`; a number that does not parse is a 400.
 */
import { badRequest } from '../../errors/api-error.js';
import type { FieldError } from '../../api/validation/field-errors.js';

type Params = [string, string][];

/** Upstream's query boolean: absent or `0`/`false` (any case) is false, anything else true. */
function queryBool(query: URLSearchParams, name: string): boolean {
  const v = query.get(name);
  return v !== null && v !== '0' && v.toLowerCase() !== 'false';
}

/** An integer query value; throws ApiError 400 with Go's strconv text when it does not parse. */
function queryInt(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  if (!/^[+-]?\d+$/.test(v) || !Number.isSafeInteger(Number(v)))
    throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return Number(v);
}

/** An RFC 3339 time query value as Go formats it; throws ApiError 400 when it does not parse. */
function queryTime(query: URLSearchParams, name: string): string | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(ms))
    throw badRequest(
      `parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)} as "2006"`,
    );
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const fieldInvalid = (field: string, value: number, detail: string): FieldError => ({
  reason: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${value}: ${detail}`,
});

/**
 * PodLogOptions from the query: the container asked for, the agent's query parameters and the
 * validation problems (tailLines < 0, limitBytes < 1, sinceSeconds < 1, both since forms).
 * Throws ApiError 400 for values that do not parse.
 */
export function logParams(query: URLSearchParams): { container: string; params: Params; problems: FieldError[] } {
  const tailLines = queryInt(query, 'tailLines');
  const limitBytes = queryInt(query, 'limitBytes');
  const sinceSeconds = queryInt(query, 'sinceSeconds');
  const sinceTime = queryTime(query, 'sinceTime');
  const problems: FieldError[] = [];
  if (tailLines !== undefined && tailLines < 0)
    problems.push(fieldInvalid('tailLines', tailLines, 'must be greater than or equal to 0'));
  if (limitBytes !== undefined && limitBytes < 1)
    problems.push(fieldInvalid('limitBytes', limitBytes, 'must be greater than 0'));
  if (sinceSeconds !== undefined && sinceTime !== undefined) {
    problems.push({
      reason: 'FieldValueForbidden',
      field: '',
      message: 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
    });
  } else if (sinceSeconds !== undefined && sinceSeconds < 1) {
    problems.push(fieldInvalid('sinceSeconds', sinceSeconds, 'must be greater than 0'));
  }
  const params: Params = [];
  if (queryBool(query, 'follow')) params.push(['follow', 'true']);
  if (queryBool(query, 'previous')) params.push(['previous', 'true']);
  if (queryBool(query, 'timestamps')) params.push(['timestamps', 'true']);
  if (sinceSeconds !== undefined) params.push(['sinceSeconds', String(sinceSeconds)]);
  if (sinceTime !== undefined) params.push(['sinceTime', sinceTime]);
  if (tailLines !== undefined) params.push(['tailLines', String(tailLines)]);
  if (limitBytes !== undefined) params.push(['limitBytes', String(limitBytes)]);
  return { container: query.get('container') ?? '', params, problems };
}

/**
 * Options of exec, attach or port-forward and the agent's parameters for them (upstream
 * streamParams). Throws ApiError 400 for a port that does not parse.
 */
export function streamParams(
  query: URLSearchParams,
  kind: 'exec' | 'attach' | 'portforward',
): { container: string; params: Params } {
  const params: Params = [];
  if (kind === 'portforward') {
    const ports = query.getAll('ports').flatMap((v) => v.split(','));
    for (const p of ports)
      if (!/^\d+$/.test(p) || Number(p) > 65535)
        throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(p)}: invalid syntax`);
    if (ports.length) params.push(['port', ports.map(Number).join(',')]);
    return { container: '', params };
  }
  if (queryBool(query, 'stdin')) params.push(['input', '1']);
  if (queryBool(query, 'stdout')) params.push(['output', '1']);
  if (queryBool(query, 'stderr')) params.push(['error', '1']);
  if (queryBool(query, 'tty')) params.push(['tty', '1']);
  if (kind === 'exec') for (const c of query.getAll('command')) params.push(['command', c]);
  return { container: query.get('container') ?? '', params };
}
