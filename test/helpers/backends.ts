/**
 * The key-value backends every storage suite runs against: the memory store, the embedded LMDB
 * store in a fresh temporary directory, and etcd started with testcontainers. Each factory
 * opens a fresh store and returns how to close it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openKvStore } from '../../src/storage/kv/open.js';
import type { KvStore } from '../../src/storage/kv/types.js';
import { startEtcd } from './etcd.js';

export type OpenBackend = () => Promise<{ kv: KvStore; close: () => Promise<void> }>;

export const BACKENDS: readonly [string, OpenBackend][] = [
  [
    'memory',
    async () => {
      const kv = await openKvStore([]);
      return { kv, close: () => kv.close() };
    },
  ],
  [
    'embedded',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'ck-embedded-'));
      const kv = await openKvStore({ backend: 'embedded', urls: [], dataDir });
      return {
        kv,
        close: async () => {
          await kv.close();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    'etcd',
    async () => {
      const etcd = await startEtcd();
      const kv = await openKvStore([etcd.endpoint]);
      return {
        kv,
        close: async () => {
          await kv.close();
          await etcd.stop();
        },
      };
    },
  ],
];
