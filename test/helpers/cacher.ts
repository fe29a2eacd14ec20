/** Waiting for a watch cache in tests. */
import type { Cacher } from '../../src/storage/cacher/cacher.js';

/** Resolve once `cacher` serves (its first list is done); throws after 5 s. */
export async function cacherReady(cacher: Cacher): Promise<void> {
  for (let i = 0; i < 200 && !cacher.ready; i++) await new Promise((r) => setTimeout(r, 25));
  if (!cacher.ready) throw new Error('watch cache did not become ready');
}
