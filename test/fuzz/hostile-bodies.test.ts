/**
 * The bodies that killed the process (a fatal RegExpCompiler out-of-memory abort, about one
 * time in two) or answered 500, each sent many times to a server in a child process: the
 * process must live through all of them and answer every one with 400.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOSTILE_REQUESTS } from './hostile-requests.js';

const ROUNDS = Number(process.env.HOSTILE_ROUNDS ?? 20);

describe('hostile bodies in a child process', () => {
  it(`leave the process alive and answer 400, ${ROUNDS} times each`, async () => {
    const child = fileURLToPath(new URL('./hostile-child.ts', import.meta.url));
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', child, String(ROUNDS)],
          { timeout: 120_000, maxBuffer: 1 << 24 },
          (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
        );
      },
    );
    expect(code, stderr.slice(0, 2000)).toBe(0);
    const seen = JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, number[]>;
    expect(Object.keys(seen)).toHaveLength(HOSTILE_REQUESTS.length);
    for (const [label, statuses] of Object.entries(seen)) expect(statuses, label).toEqual([400]);
  }, 180_000);
});
