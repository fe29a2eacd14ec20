// The data-directory lock is the kernel's: a second server on the same directory is refused
// while the first runs (in another process or in this one), and a holder killed with SIGKILL
// leaves nothing behind that blocks the next start, whatever PID the lock file names.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { KvError } from '../types.js';
import { lockDataDir } from './data-lock.js';

const LOCK_MODULE = pathToFileURL(join(import.meta.dirname, 'data-lock.ts')).href;
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ck-data-lock-'));
  dirs.push(dir);
  return dir;
}

/** A child process that takes the lock of `dir` and keeps it; resolves once it holds it. */
async function holdInChild(dir: string): Promise<ChildProcess> {
  const code = `const { lockDataDir } = await import(${JSON.stringify(LOCK_MODULE)}); lockDataDir(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 60000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => String(d).includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}: ${stderr}`)));
  });
  return child;
}

async function kill9(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

describe('lockDataDir', () => {
  it('refuses a second server while a process holds the directory, and takes it once that process is killed with SIGKILL', async () => {
    const dir = tempDir();
    const holder = await holdInChild(dir);
    let refused: unknown;
    try {
      lockDataDir(dir)();
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(KvError);
    expect((refused as KvError).message).toBe(
      `the data directory ${dir} is in use by process ${holder.pid}; one server per --data-dir`,
    );

    await kill9(holder);
    // The dead holder's file is still there, naming a PID that is alive again: PID 1, as a
    // restarted container's server would be. It does not matter: the kernel dropped the lock.
    expect(readFileSync(join(dir, 'ck-apiserver.lock'), 'utf8').trim()).toBe(String(holder.pid));
    writeFileSync(join(dir, 'ck-apiserver.lock'), '1\n');
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'ck-apiserver.lock'), 'utf8').trim()).toBe(String(process.pid));
    release();
  });

  it('refuses a process while this one holds the directory, and lets it in after release', async () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    await expect(holdInChild(dir)).rejects.toThrow(
      `the data directory ${dir} is in use by process ${process.pid}; one server per --data-dir`,
    );
    release();
    release(); // idempotent
    await kill9(await holdInChild(dir));
  });

  it('refuses a second open in the same process until the first is released', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(/in use by process \d+; one server per --data-dir/);
    release();
    lockDataDir(dir)();
  });

  it('fails with Unavailable, naming the directory, when the lock file cannot be created', () => {
    const dir = join(tempDir(), 'missing');
    expect(() => lockDataDir(dir)).toThrow(
      expect.objectContaining({ code: 'Unavailable', message: expect.stringContaining(`cannot lock ${dir}`) }),
    );
  });
});
