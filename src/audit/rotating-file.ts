/**
 * A size-rotated log file, as upstream's audit log uses gopkg.in/natefinch/lumberjack.v2:
 * the file is appended to until a write would take it past `maxSizeBytes`; it is then
 * renamed to `<name>-<UTC timestamp><ext>` (`audit-2026-11-24T15-30-00.000.log` for
 * `audit.log`, lumberjack's `2006-01-02T15-04-05.000`) and a new file is started. After each
 * rotation, backups beyond the newest `maxBackups` and those whose name is older than
 * `maxAgeDays` are removed (0 = no limit), by the timestamp in their names.
 *
 * A write the disk cannot take (ENOSPC, EIO) throws and loses what it did not write; the file
 * stays open and the next write tries again. A line cut short by a full disk is ended with a
 * newline before the next, so one bad line does not spoil the one after it. A path that is not
 * a regular file (`/dev/stdout`, a FIFO, `/dev/full`) is written to but never rotated.
 */
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

/** lumberjack's default when MaxSize is 0: 100 megabytes. */
export const DEFAULT_MAX_SIZE_BYTES = 100 * 1024 * 1024;

export interface RotatingFileOptions {
  /** The current log file; backups go beside it. */
  readonly filename: string;
  /** Bytes a file may hold before rotation (0 = 100 MiB). */
  readonly maxSizeBytes: number;
  /** Rotated files to keep (0 = all). */
  readonly maxBackups: number;
  /** Days to keep rotated files (0 = forever). */
  readonly maxAgeDays: number;
  /** The clock (tests). */
  readonly now?: () => Date;
}

/** A write larger than the size limit (lumberjack: `write length N exceeds maximum file size M`). */
export class WriteTooLargeError extends Error {}

/** The rotated name of `filename` at `time` (lumberjack backupName, UTC). */
export function backupName(filename: string, time: Date): string {
  const ext = extname(filename);
  const prefix = basename(filename, ext);
  const stamp = time.toISOString().slice(0, 23).replace(/:/g, '-');
  return join(dirname(filename), `${prefix}-${stamp}${ext}`);
}

/** The rotation time encoded in a backup's name, or undefined when it is not one of ours. */
export function backupTime(filename: string, name: string): Date | undefined {
  const ext = extname(filename);
  const prefix = `${basename(filename, ext)}-`;
  if (!name.startsWith(prefix) || !name.endsWith(ext)) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(
    name.slice(prefix.length, name.length - ext.length),
  );
  if (!m) return undefined;
  const [y, mo, d, h, mi, s, ms] = m.slice(1).map(Number);
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
}

/**
 * One rotating file. Calls must not overlap (the log backend serializes them). Files are
 * created with mode 0600 in a directory made with 0755 when missing.
 */
export class RotatingFile {
  private handle?: FileHandle;
  private size = 0;
  /** The file ends inside a line (a write cut short). */
  private midLine = false;
  /** The path is not a regular file: never renamed. */
  private special = false;
  private readonly max: number;
  private readonly now: () => Date;

  constructor(private readonly opts: RotatingFileOptions) {
    this.max = opts.maxSizeBytes > 0 ? Math.floor(opts.maxSizeBytes) : DEFAULT_MAX_SIZE_BYTES;
    this.now = opts.now ?? (() => new Date());
  }

  /** Open (create) the file now, so that start-up fails on an unwritable path. */
  async open(): Promise<void> {
    if (!this.handle) await this.openExistingOrNew(0);
  }

  /**
   * Append whole lines, rotating between lines whenever the next would pass the limit. A line
   * larger than the limit is skipped and reported by the WriteTooLargeError thrown once the
   * others are written. Throws file system errors.
   */
  async writeLines(lines: readonly Buffer[]): Promise<void> {
    let batch: Buffer[] = [];
    let batchBytes = 0;
    let tooLarge: WriteTooLargeError | undefined;
    for (const line of lines) {
      if (line.length > this.max) {
        tooLarge = new WriteTooLargeError(`write length ${line.length} exceeds maximum file size ${this.max}`);
        continue;
      }
      if (!this.handle) await this.openExistingOrNew(line.length);
      if (!this.special && this.size + batchBytes + line.length > this.max) {
        await this.writeBatch(batch);
        batch = [];
        batchBytes = 0;
        await this.rotate();
      }
      batch.push(line);
      batchBytes += line.length;
    }
    await this.writeBatch(batch);
    if (tooLarge) throw tooLarge;
  }

  /** Close the file (a later write opens it again). */
  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  /** Write all of `batch`, going on after short writes (writev may take part of it). */
  private async writeBatch(batch: Buffer[]): Promise<void> {
    if (!batch.length || !this.handle) return;
    let rest = this.midLine ? [NEWLINE, ...batch] : batch;
    while (rest.length) {
      const { bytesWritten } = await this.handle.writev(rest);
      if (bytesWritten === 0)
        throw Object.assign(new Error(`write to ${this.opts.filename} wrote nothing`), { code: 'EIO' });
      this.size += bytesWritten;
      ({ rest, cut: this.midLine } = skipBytes(rest, bytesWritten));
    }
  }

  /** lumberjack openExistingOrNew: append unless the file is missing or this write would fill it. */
  private async openExistingOrNew(writeLen: number): Promise<void> {
    const info = await stat(this.opts.filename).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (!info) return this.openNew();
    this.special = !info.isFile();
    if (!this.special && info.size + writeLen >= this.max) return this.rotate();
    this.handle = await open(this.opts.filename, 'a');
    this.size = info.size;
  }

  /** Move the current file aside (if any) and start a new one. */
  private async rotate(): Promise<void> {
    await this.close();
    await this.openNew();
    await this.removeOld();
  }

  private async openNew(): Promise<void> {
    const name = this.opts.filename;
    await mkdir(dirname(name), { recursive: true, mode: 0o755 });
    let mode = 0o600;
    const info = await stat(name).catch(() => undefined);
    if (info) {
      mode = info.mode & 0o777;
      // Two rotations within a millisecond would share a name: step on rather than overwrite.
      let time = this.now();
      while (await exists(backupName(name, time))) time = new Date(time.getTime() + 1);
      await rename(name, backupName(name, time));
    }
    this.handle = await open(name, 'w', mode);
    this.size = 0;
    this.midLine = false;
  }

  /** lumberjack millRunOnce without compression: keep the newest maxBackups, none older than maxAgeDays. */
  private async removeOld(): Promise<void> {
    const { maxBackups, maxAgeDays, filename } = this.opts;
    if (maxBackups <= 0 && maxAgeDays <= 0) return;
    const dir = dirname(filename);
    const backups = (await readdir(dir))
      .map((name) => ({ name, time: backupTime(filename, name) }))
      .filter((b): b is { name: string; time: Date } => b.time !== undefined)
      .sort((a, b) => b.time.getTime() - a.time.getTime());
    const cutoff = this.now().getTime() - maxAgeDays * 24 * 3600 * 1000;
    const remove = backups.filter(
      (b, i) => (maxBackups > 0 && i >= maxBackups) || (maxAgeDays > 0 && b.time.getTime() < cutoff),
    );
    await Promise.all(remove.map((b) => rm(join(dir, b.name), { force: true })));
  }
}

const NEWLINE = Buffer.from('\n');

/** `bufs` less their first `n` bytes; `cut` when that ends inside one of them. */
function skipBytes(bufs: readonly Buffer[], n: number): { rest: Buffer[]; cut: boolean } {
  let i = 0;
  for (; i < bufs.length && n >= bufs[i].length; i++) n -= bufs[i].length;
  if (n > 0) return { rest: [bufs[i].subarray(n), ...bufs.slice(i + 1)], cut: true };
  return { rest: bufs.slice(i), cut: false };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
