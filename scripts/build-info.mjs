#!/usr/bin/env node
// Writes dist/build-info.json after the TypeScript build: the package version, the git commit
// and tree state of the checkout, and the build time. In a Docker build there is no .git, so
// CK_GIT_COMMIT / CK_GIT_TREE_STATE (build args) are used when set. `/version` serves this.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const git = (...args) => {
  try {
    return execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return '';
  }
};
const commit = process.env.CK_GIT_COMMIT || git('rev-parse', 'HEAD') || 'unknown';
const treeState =
  process.env.CK_GIT_TREE_STATE ||
  (commit === 'unknown' ? 'unknown' : git('status', '--porcelain', '--untracked-files=no') ? 'dirty' : 'clean');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const info = {
  version,
  gitCommit: commit,
  gitTreeState: treeState,
  buildDate: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
};
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, 'dist', 'build-info.json'), JSON.stringify(info, null, 2) + '\n');
