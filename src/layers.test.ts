// The layer check (`npm run lint:deps`, .dependency-cruiser.mjs) is itself tested: it passes on
// the tree as it is, and fails on a copy of the tree with one deliberate violation added (an
// upward import, an import cycle, a contract importing an implementation, I/O in api), naming
// the rule that caught it.
import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const config = join(root, '.dependency-cruiser.mjs');
const cli = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const TIMEOUT = 60_000;

/** Run the check as `npm run lint:deps` does, in `cwd`; its exit code and report. */
function depcruise(cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, 'src', '--config', config, '--output-type', 'err'],
      { cwd, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => {
        resolve({ code: err ? Number(err.code ?? 1) : 0, out: `${stdout}${stderr}` });
      },
    );
  });
}

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

/** A copy of src/ and tsconfig.json (node_modules linked) that `change` then edits. */
function copyOfTree(change: (src: string) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'ck-layers-'));
  copies.push(dir);
  cpSync(join(root, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(root, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  change(join(dir, 'src'));
  return dir;
}

/** The rule names of the violations in a report (`  error <rule>: <from> → <to>`). */
function rulesOf(out: string): string[] {
  return [...new Set([...out.matchAll(/^\s*error ([\w-]+):/gm)].map((m) => m[1]!))].sort();
}

describe('layer check (dependency-cruiser)', () => {
  // That it passes on the tree as it is, `npm run lint:deps` checks in `npm test`. One copy of the
  // tree carries every deliberate violation below, so one run shows each rule catches its own.
  it(
    'fails on an upward import, a sideways import in a layer, an import cycle, a contract importing an implementation and I/O in api, each named by its rule',
    { timeout: TIMEOUT },
    async () => {
      const dir = copyOfTree((src) => {
        // Upward: api importing http.
        appendFileSync(
          join(src, 'api', 'go-duration.ts'),
          "\nexport { isUpgradeRequest } from '../http/proxy/upgrade.js';\n",
        );
        // Sideways between members of one layer: net importing serving.
        appendFileSync(
          join(src, 'net', 'ranges.ts'),
          "\nexport type { TlsVersionName } from '../serving/cipher-suites.js';\n",
        );
        // A cycle, even of types only.
        writeFileSync(
          join(src, 'registry', 'cycle-a.ts'),
          "import type { B } from './cycle-b.js';\nexport interface A { b?: B }\n",
        );
        writeFileSync(
          join(src, 'registry', 'cycle-b.ts'),
          "import type { A } from './cycle-a.js';\nexport interface B { a?: A }\n",
        );
        // Contracts importing implementations (a type and a value), and I/O in api.
        appendFileSync(
          join(src, 'storage', 'kv', 'types.ts'),
          "\nexport type { SortedMap } from '../sorted-map.js';\n",
        );
        appendFileSync(
          join(src, 'registry', 'types.ts'),
          "\nexport { encodeContinue } from '../storage/continue-token.js';\n",
        );
        appendFileSync(join(src, 'api', 'names.ts'), "\nexport { readFileSync } from 'node:fs';\n");
      });
      const { code, out } = await depcruise(dir);
      expect(code).not.toBe(0);
      expect(rulesOf(out)).toEqual([
        'api-no-io',
        'contract-imports-implementation',
        'contract-value-import',
        'layer-api',
        'layer-net',
        'no-circular',
      ]);
      expect(out).toContain('src/api/go-duration.ts → src/http/proxy/upgrade.ts');
      expect(out).toContain('src/net/ranges.ts → src/serving/cipher-suites.ts');
      expect(out).toMatch(/src\/registry\/cycle-a\.ts →\s+src\/registry\/cycle-b\.ts →\s+src\/registry\/cycle-a\.ts/);
      expect(out).toContain('src/storage/kv/types.ts → src/storage/sorted-map.ts');
      expect(out).toContain('src/registry/types.ts → src/storage/continue-token.ts');
      expect(out).toContain('src/api/names.ts → fs');
    },
  );
});
