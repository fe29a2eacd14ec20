/**
 * RE2 regular expressions for CEL's `matches` and the Kubernetes regex library (`find`,
 * `findAll`), with Go's semantics (linear time, no backreferences) through re2js, a port of
 * RE2/J. Compiled patterns are cached (rules use a handful of literal patterns).
 */
import { RE2JS } from 're2js';
import { CelErr } from './values.js';

const cache = new Map<string, RE2JS | CelErr>();
const MAX_CACHE = 500;

/** Compile `pattern`, or the error cel-go reports (`error parsing regexp: ...`). */
export function compileRegex(pattern: string): RE2JS | CelErr {
  let r = cache.get(pattern);
  if (r) return r;
  try {
    r = RE2JS.compile(pattern);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    r = new CelErr(msg.startsWith('error parsing regexp') ? msg : `error parsing regexp: ${msg}`);
  }
  if (cache.size >= MAX_CACHE) cache.clear();
  cache.set(pattern, r);
  return r;
}
