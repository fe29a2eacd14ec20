/**
 * One process per data directory: the embedded store's watches are in-process, so a second
 * process writing the same files would go unseen. The lock is a file holding the owner's PID,
 * created exclusively; a lock left by a process that no longer runs is taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { KvError } from '../types.js';

const LOCK_FILE = 'ck-apiserver.lock';

/** True when a process with this PID exists (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Take the lock of `dir` (which must exist) for this process; returns a release function.
 * Throws KvError('Internal') naming the directory and the PID when a live process holds it,
 * including this very process (a second open in one process).
 */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new KvError('Unavailable', `cannot lock ${dir}: ${(err as Error).message}`);
      const owner = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
        throw new KvError('Internal', `the data directory ${dir} is in use by process ${owner}; one server per --data-dir`);
      }
      rmSync(path, { force: true }); // stale: its process is gone
    }
  }
  throw new KvError('Internal', `cannot lock ${dir}`);
}
