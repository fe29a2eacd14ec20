/**
 * What this build is: the package version, git commit and tree state, and build time. A built
 * server reads `dist/build-info.json` (written by scripts/build-info.mjs after `tsc`); run from
 * source (tsx) it asks git once at start and uses the start time as the build date.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `version`: package.json's; `gitCommit`: 40 hex digits or 'unknown'; `buildDate`: RFC 3339 UTC. */
export interface BuildInfo {
  readonly version: string;
  readonly gitCommit: string;
  readonly gitTreeState: 'clean' | 'dirty' | 'unknown';
  readonly buildDate: string;
}

const here = dirname(fileURLToPath(import.meta.url));
let cached: BuildInfo | undefined;

function fromGit(): BuildInfo {
  const root = join(here, '..');
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim();
    } catch {
      return '';
    }
  };
  const commit = git('rev-parse', 'HEAD');
  let version = '0.0.0';
  try {
    version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  } catch {
    /* not beside a package.json */
  }
  return {
    version,
    gitCommit: commit || 'unknown',
    gitTreeState: !commit ? 'unknown' : git('status', '--porcelain', '--untracked-files=no') ? 'dirty' : 'clean',
    buildDate: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

/** This build's information; read once and cached. Never throws. */
export function buildInfo(): BuildInfo {
  if (cached) return cached;
  try {
    cached = JSON.parse(readFileSync(join(here, 'build-info.json'), 'utf8')) as BuildInfo;
  } catch {
    cached = fromGit();
  }
  return cached;
}
