/**
 * The project's container image for tests, built from the repository's Dockerfile on the
 * local base image (NODE_IMAGE, default `local/node:20`, which the set-up script builds with no
 * registry). Built once per test process; Docker's layer cache makes later builds quick.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The tag tests run: `ck-apiserver:e2e` unless CK_IMAGE names an image built elsewhere. */
export const PROJECT_IMAGE = process.env.CK_IMAGE ?? 'ck-apiserver:e2e';
let built: Promise<string> | undefined;

/**
 * Build the image (once per process) and resolve to its tag. Rejects with docker's output when
 * the build fails. With CK_IMAGE set, nothing is built and that tag is used as is.
 */
export function buildProjectImage(): Promise<string> {
  if (process.env.CK_IMAGE) return Promise.resolve(PROJECT_IMAGE);
  built ??= new Promise<string>((resolve, reject) => {
    const args = [
      'build',
      '-q',
      '--build-arg',
      `NODE_IMAGE=${process.env.NODE_IMAGE ?? 'local/node:20'}`,
      '-t',
      PROJECT_IMAGE,
      ROOT,
    ];
    const child = spawn('docker', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(PROJECT_IMAGE) : reject(new Error(`docker build failed (${code}):\n${out.slice(-4000)}`)),
    );
  });
  return built;
}
