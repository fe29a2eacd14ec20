/**
 * Keys repeated within one mapping of a YAML text, reported as upstream's strict YAML decoding
 * reports them (sigs.k8s.io/yaml UnmarshalStrict over go-yaml v2, decode.go setMapIndex): one
 * `line <n>: key "<key>" already set in map` per repeat, where `<n>` is the line of the
 * repeated key's value and `<key>` Go's `%#v` of the decoded key, in the order go-yaml finds
 * them (a value's own repeats before its key's). The lenient decoders keep the last value.
 * Pure; no I/O.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { goQuote } from './apply/go-format.js';

/** The start of go-yaml's strict error text (upstream handlers' shortPrefix). */
export const YAML_UNMARSHAL_ERRORS = 'yaml: unmarshal errors:';

/** Most levels walked (the text's depth was bounded when it was parsed). */
const MAX_DEPTH = 512;

/** Go's `%#v` of a decoded YAML key. */
function goKey(value: unknown): string {
  if (typeof value === 'string') return goQuote(value);
  if (value === null || value === undefined) return '<nil>';
  return String(value);
}

/**
 * The repeated keys of the single document `raw` (already known to parse), as go-yaml's
 * strict-mode messages; empty when none (or when the text does not parse).
 */
export function yamlDuplicateKeys(raw: string): string[] {
  const lines = new LineCounter();
  const doc = parseDocument(raw, {
    uniqueKeys: false,
    resolveKnownTags: false,
    lineCounter: lines,
    logLevel: 'silent',
  });
  if (doc.errors.length) return [];
  const out: string[] = [];
  const lineOf = (offset: number) => lines.linePos(offset).line;
  const walk = (node: unknown, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (isSeq(node)) {
      for (const item of node.items) walk(item, depth + 1);
      return;
    }
    if (!isMap(node)) return;
    const seen = new Set<string>();
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      walk(pair.value, depth + 1);
      const key = isScalar(pair.key) ? pair.key.value : pair.key;
      const id = `${typeof key}:${String(key)}`;
      if (seen.has(id)) {
        const at = (pair.value as Node | null)?.range?.[0] ?? (pair.key as Node | null)?.range?.[0] ?? 0;
        out.push(`line ${lineOf(at)}: key ${goKey(key)} already set in map`);
      }
      seen.add(id);
    }
  };
  walk(doc.contents, 0);
  return out;
}

/** go-yaml's strict error text for `problems` (yamlDuplicateKeys): `yaml: unmarshal errors:\n  line 9: ...`. */
export function yamlUnmarshalErrors(problems: readonly string[]): string {
  return [YAML_UNMARSHAL_ERRORS, ...problems.map((p) => `  ${p}`)].join('\n');
}
