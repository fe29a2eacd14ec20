#!/usr/bin/env node
// `npm start` runs this first: build dist/ only when it is missing or older than a source file
// (or package.json), so starting again takes seconds instead of a full TypeScript build.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'build-info.json');

/** The newest modification time (ms) of the files under `dir`. */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const stale =
  !existsSync(built) ||
  Math.max(newest(join(root, 'src')), statSync(join(root, 'package.json')).mtimeMs) > statSync(built).mtimeMs;
if (stale) {
  process.stdout.write('building dist/ (sources changed since the last build)\n');
  execSync('npm run build --silent', { cwd: root, stdio: 'inherit' });
}
