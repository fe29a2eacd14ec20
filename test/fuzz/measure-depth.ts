/**
 * Where each recursive path of the server breaks, as recorded in src/api/nesting.ts: the
 * deepest nesting each survives from a fresh stack, found by bisection, one path per child
 * process (some abort the process rather than throw). Not a test; run it with
 * `npx tsx test/fuzz/measure-depth.ts` (about 2.5 minutes on 2 cores), or `... <path name>` for one path.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fastJsonPatch from 'fast-json-patch';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { checkSchema } from '../../src/api/field-validation.js';
import { codecFor } from '../../src/api/protobuf/codec.js';
import { RESOURCE_TABLE } from '../../src/resources/table.js';
import { mergePatch } from '../../src/http/patch/patch-object.js';
import { strategicMerge } from '../../src/http/patch/strategic-merge.js';

const nestArr = (d: number): unknown => Array.from({ length: d }).reduce<unknown>((v) => [v], 1);
const nestObj = (d: number): unknown => Array.from({ length: d }).reduce<unknown>((v) => ({ a: v }), 1);
const pods = RESOURCE_TABLE.find((d) => d.plural === 'pods')!;

const PATHS: Record<string, (d: number) => unknown> = {
  'JSON.parse': (d) => JSON.parse('['.repeat(d) + ']'.repeat(d)),
  'JSON.stringify': (d) => JSON.stringify(nestObj(d)),
  structuredClone: (d) => structuredClone(nestObj(d)),
  'merge patch': (d) => mergePatch({}, nestObj(d)),
  'strategic merge (maps)': (d) => strategicMerge({}, nestObj(d)),
  'strategic merge (lists)': (d) => strategicMerge({}, { a: nestArr(d) }),
  'fast-json-patch add': (d) =>
    fastJsonPatch.applyPatch({}, [{ op: 'add', path: '/a', value: nestObj(d) }], true, false),
  'fast-json-patch test': (d) =>
    fastJsonPatch.applyPatch({ a: nestObj(d) }, [{ op: 'test', path: '/a', value: nestObj(d) }], true, false),
  'zod schema check': (d) =>
    checkSchema(pods.schema, {
      metadata: { name: 'x', labels: { a: nestObj(d) } },
      spec: { containers: [{ name: 'c', image: 'i' }], x: nestObj(d) },
    }),
  'yaml parse (flow)': (d) => parseYaml('['.repeat(d) + ']'.repeat(d)),
  'yaml parse (compact sequences)': (d) => parseYaml('- '.repeat(d) + 'x'),
  'yaml parse (block mappings)': (d) =>
    parseYaml(Array.from({ length: d }, (_, i) => ' '.repeat(i) + 'a:').join('\n') + ' 1'),
  'yaml stringify': (d) => stringifyYaml(nestObj(d)),
  'protobuf decode (nested groups)': (d) => {
    const codec = codecFor(RESOURCE_TABLE) as unknown as { type(n: string): { decode(b: Buffer): unknown } };
    codec
      .type('Pod')
      .decode(
        Buffer.concat([...Array(d).fill(Buffer.from([0xa3, 0x06])), ...Array(d).fill(Buffer.from([0xa4, 0x06]))]),
      );
  },
};

/** In a child: does `path` survive depth `d`? Exit 0 yes, 1 it threw; a crash is any other exit. */
function childProbe(name: string, d: number): void {
  try {
    PATHS[name](d);
    process.exit(0);
  } catch {
    process.exit(1);
  }
}

function survives(name: string, d: number): 'ok' | 'threw' | 'crashed' {
  try {
    execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--probe', name, String(d)], {
      stdio: 'ignore',
      timeout: 60_000,
    });
    return 'ok';
  } catch (err) {
    return (err as { status?: number }).status === 1 ? 'threw' : 'crashed';
  }
}

const [flag, name, depth] = process.argv.slice(2);
if (flag === '--probe') childProbe(name, Number(depth));
else {
  for (const path of flag ? [flag] : Object.keys(PATHS)) {
    let lo = 1;
    let hi = 200_000;
    let how = 'threw';
    if (survives(path, hi) === 'ok') {
      console.log(`${path}: survives ${hi}`);
      continue;
    }
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      const r = survives(path, mid);
      if (r === 'ok') lo = mid;
      else [hi, how] = [mid, r];
    }
    console.log(`${path}: survives ${lo}, ${how} at ${hi}`);
  }
}
