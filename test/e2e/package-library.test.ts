// The package as users get it: `npm pack` (which builds dist/ with types), installed into a
// scratch project with client-node and testcontainers; that project starts the server in-process
// and as a container through `ck-apiserver/testcontainers`, syncs an informer against each,
// and type-checks against both entry points.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildProjectImage } from '../helpers/image.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'ck-consumer-'));
let image: string;
let tarball: string;

beforeAll(async () => {
  image = await buildProjectImage();
  await run('npm', ['pack', '--silent', '--pack-destination', scratch], { cwd: ROOT, maxBuffer: 1 << 24 });
  tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz'))!;
  const deps = JSON.parse(
    (await run('node', ['-p', 'JSON.stringify(require("./package.json").devDependencies)'], { cwd: ROOT })).stdout,
  );
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      `./${tarball}`,
      `@kubernetes/client-node@${deps['@kubernetes/client-node']}`,
      `testcontainers@${deps.testcontainers}`,
    ],
    {
      cwd: scratch,
      maxBuffer: 1 << 24,
    },
  );
  for (const f of ['consumer.mjs', 'consumer-types.ts'])
    copyFileSync(join(import.meta.dirname, 'library', f), join(scratch, f));
}, 600_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it('packs dist/ with types and no tests', async () => {
  const { stdout } = await run('tar', ['-tzf', join(scratch, tarball)]);
  const files = stdout.split('\n');
  expect(files).toEqual(
    expect.arrayContaining([
      'package/dist/index.js',
      'package/dist/index.d.ts',
      'package/dist/testcontainers/index.d.ts',
      'package/dist/main.js',
      'package/dist/build-info.json',
    ]),
  );
  expect(files.filter((f) => /\.test\.|^package\/(src|test)\//.test(f))).toEqual([]);
});

it('starts in-process and as a container from a scratch project, and a client-node informer syncs against each', async () => {
  const { stdout } = await run('node', ['consumer.mjs'], {
    cwd: scratch,
    env: {
      TESTCONTAINERS_RYUK_DISABLED: 'true',
      TESTCONTAINERS_HOST_OVERRIDE: '127.0.0.1',
      ...process.env,
      CK_IMAGE: image,
    },
    timeout: 170_000,
  });
  const results = JSON.parse(stdout.trim().split('\n').pop()!);
  console.log(
    `library: in-process start to first 200 in ${results.inProcessFirst200Ms} ms; container started in ${results.containerStartMs} ms`,
  );
  expect(results.inProcess).toEqual(['after', 'before']);
  expect(results.container).toEqual(['after', 'before']);
  expect(results.containerToken).toBe('consumer-token');
  expect(results.inProcessFirst200Ms).toBeGreaterThan(0);
});

it("type-checks a user's file against both entry points", async () => {
  const tsc = join(ROOT, 'node_modules/.bin/tsc');
  const args = [
    '--noEmit',
    '--strict',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--target',
    'es2022',
    '--skipLibCheck',
    'consumer-types.ts',
  ];
  await expect(run(tsc, args, { cwd: scratch })).resolves.toBeDefined();
  writeFileSync(
    join(scratch, 'wrong-types.ts'),
    "import { startServer } from 'ck-apiserver';\nawait startServer({ storage: 'nonsense' });\n",
  );
  await expect(run(tsc, [...args.slice(0, -1), 'wrong-types.ts'], { cwd: scratch })).rejects.toMatchObject({
    stdout: expect.stringContaining('nonsense'),
  });
});
