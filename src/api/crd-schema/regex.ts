/**
 * `pattern` as upstream evaluates it: Go's regexp.Compile (RE2 syntax, Perl flags) through
 * kube-openapi's compileRegexp (pkg/validation/validate), matched unanchored with MatchString.
 * Compiled with RE2JS, a port of Go's regexp: linear time in the input (no backtracking, so a
 * hostile pattern such as `^(a+)+$` cannot stall a replica), Go's syntax (`(?i:...)`, `\pL`,
 * `[[:^alpha:]]`, `\Q...\E`, `\z`, `(?P<n>...)`) and semantics (`.` excludes only `\n`; `\s`,
 * `\d`, `\w`, `\b` are ASCII; `$` is the end of the text), and Go's compile errors
 * (`error parsing regexp: missing closing ): \`(a\``). Where RE2JS goes beyond Go 1.24 (the Go
 * of Kubernetes 1.33) the difference is closed here: its extra `\p{...}` names are refused as Go
 * refuses them, the errors it words without an expression get Go's `: \`...\`` tail, and
 * repeated group names (`(?P<x>a)|(?P<x>b)`), which Go accepts and RE2JS refuses, are compiled
 * without their names (names do not change what matches).
 * Left: RE2JS's Unicode tables are newer (characters added after Unicode 15.0 match their
 * classes here and not in Go).
 */
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { unknownGoClass } from './go-unicode-classes.js';

/** A compiled pattern (`re.test(s)`: an unanchored match), or Go's compile error text. */
export type CompiledPattern = { re: RE2JS; error?: undefined } | { re?: undefined; error: string };

/**
 * Patterns kept compiled, least recently used dropped first (upstream's cache is unbounded).
 * A typical pattern holds ~10 KB once used; RE2JS's lazy DFA may grow to its 8 MB budget per
 * pattern when a DFA-hostile pattern (`a[ab]{20}z`) meets long input.
 */
const CACHE_SIZE = 1000;
const cache = new Map<string, CompiledPattern>();

const goError = (code: string, expr: string) => `error parsing regexp: ${code}: \`${expr}\``;

/**
 * Compile `pattern` as Go's regexp.Compile does, once per pattern (cached, errors included).
 * Never throws: an invalid pattern gives `{ error }` with Go's text.
 */
export function compilePattern(pattern: string): CompiledPattern {
  let c = cache.get(pattern);
  if (c) cache.delete(pattern);
  else {
    c = compile(pattern);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  cache.set(pattern, c);
  return c;
}

/**
 * Go's regexp.Compile error for `pattern` (`error parsing regexp: ...`), or undefined when Go
 * accepts it. CRD validation (validation.go ValidateCustomResourceDefinitionOpenAPISchema)
 * reports it as `must be a valid regular expression, but isn't: <error>`.
 */
export function goRegexpError(pattern: string): string | undefined {
  return compilePattern(pattern).error;
}

function compile(pattern: string): CompiledPattern {
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (err) {
    if (!(err instanceof RE2JSSyntaxException) || err.error !== 'duplicate capture group name') {
      return { error: goErrorText(pattern, err) };
    }
    const unnamed = withoutGroupNames(pattern);
    try {
      re = RE2JS.compile(unnamed);
    } catch (err2) {
      if (err2 instanceof RE2JSSyntaxException && err2.input === unnamed) {
        return { error: goError(err2.error, pattern) };
      }
      return { error: goErrorText(pattern, err2) };
    }
  }
  const unknown = unknownGoClass(pattern);
  if (unknown !== undefined) return { error: goError('invalid character class range', unknown) };
  return { re };
}

const NAMED_GROUP = /^\(\?P?<[A-Za-z0-9_]+>/;

/**
 * `pattern` with each well-formed named group `(?P<name>` or `(?<name>` made a plain `(`,
 * outside escapes, `\Q...\E` and bracket expressions (where `(` is a literal).
 */
function withoutGroupNames(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i];
    let next = i + 1;
    if (ch === '\\') {
      if (pattern[i + 1] === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        next = end < 0 ? pattern.length : end + 2;
      } else next = i + 2;
    } else if (ch === '[') {
      next = classEnd(pattern, i);
    } else if (ch === '(') {
      const named = NAMED_GROUP.exec(pattern.slice(i));
      if (named) {
        out += '(';
        i += named[0].length;
        continue;
      }
    }
    out += pattern.slice(i, next);
    i = next;
  }
  return out;
}

/** The index after the bracket expression opening at `start` (the pattern's end if unclosed). */
function classEnd(p: string, start: number): number {
  let i = start + 1;
  if (p[i] === '^') i++;
  if (p[i] === ']') i++; // a leading ] is a literal
  while (i < p.length && p[i] !== ']') {
    if (p[i] === '\\') i += 2;
    else if (p.startsWith('[:', i) && p.indexOf(':]', i + 2) > 0) i = p.indexOf(':]', i + 2) + 2;
    else i++;
  }
  return Math.min(i + 1, p.length);
}

/**
 * Go's wording of an RE2JS compile error. Go's Error always ends in ``: `expr` ``: empty for a
 * trailing backslash, the whole pattern for `expression too large` and `expression nests too
 * deeply` (regexp/syntax parse), where RE2JS gives none.
 */
function goErrorText(pattern: string, err: unknown): string {
  if (err instanceof RE2JSSyntaxException) {
    if (err.input !== null) return err.message;
    return goError(err.error, err.error === 'trailing backslash at end of expression' ? '' : pattern);
  }
  return `error parsing regexp: ${err instanceof Error ? err.message : String(err)}`;
}
