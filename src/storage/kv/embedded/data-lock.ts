/**
 * One process per data directory: the embedded store's watches are in-process, so a second
 * process writing the same files would go unseen.
 *
 * The lock is an exclusive advisory lock held by the kernel on `<dir>/ck-apiserver.lock`, as
 * etcd's bbolt and LMDB itself do: an open-file-description lock (`fcntl(F_OFD_SETLK)` on Linux,
 * `flock` on macOS, `LockFileEx` on Windows) through the `fs-native-extensions` package
 * (prebuilt binaries). The kernel lets go of it when the process ends, however it ends, so a
 * lock left by a killed server never blocks a restart, even one that gets the same PID (PID 1 in
 * a container). It belongs to the open file, not to the process, so a second open in the same
 * process is refused too. The file is never removed (removing it would let two openers lock two
 * different files); it holds the owner's PID (as its own PID namespace sees it), for people only.
 */
import { closeSync, constants, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { KvError } from '../types.js';
import { errorMessage } from '../../../api/error-message.js';

const LOCK_FILE = 'ck-apiserver.lock';

/** The part of fs-native-extensions used here (the package ships no types). */
interface FsNativeExtensions {
  /** Lock the whole file without waiting: true when taken, false when another open file holds it; throws other errors. */
  tryLock(fd: number, offset?: number, length?: number, opts?: { shared?: boolean }): boolean;
}

let native: FsNativeExtensions | undefined;
/** Loaded on first use, so the memory and etcd backends never load the native addon. */
function fsExt(): FsNativeExtensions {
  native ??= createRequire(import.meta.url)('fs-native-extensions') as FsNativeExtensions;
  return native;
}

/** Who holds the lock, from the PID its holder wrote into the file (informative only). */
function holder(path: string): string {
  try {
    const pid = readFileSync(path, 'utf8').trim();
    if (/^\d+$/.test(pid)) return `process ${pid}`;
  } catch {
    /* unreadable: say less */
  }
  return 'another process';
}

/**
 * Take the lock of `dir` (which must exist) for the life of this process, or until the returned
 * release function is called (it closes the lock file; idempotent).
 * Throws KvError('Internal') naming the directory when another server holds it (another
 * process, or another open in this one), and KvError('Unavailable') when the lock file cannot be
 * opened or the file system refuses locks.
 */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  let fd: number;
  try {
    // Neither O_TRUNC nor O_EXCL: the file may exist, and its holder's PID stays until we hold it.
    fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600);
  } catch (err) {
    throw new KvError('Unavailable', `cannot lock ${dir}: ${errorMessage(err)}`);
  }
  let locked: boolean;
  try {
    locked = fsExt().tryLock(fd);
  } catch (err) {
    closeSync(fd);
    throw new KvError('Unavailable', `cannot lock ${dir}: ${errorMessage(err)}`);
  }
  if (!locked) {
    closeSync(fd);
    throw new KvError('Internal', `the data directory ${dir} is in use by ${holder(path)}; one server per --data-dir`);
  }
  try {
    ftruncateSync(fd, 0);
    writeSync(fd, `${process.pid}\n`, 0);
  } catch {
    // The PID is only informative: a full disk must not stop a server that holds the lock.
  }
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    closeSync(fd);
  };
}
