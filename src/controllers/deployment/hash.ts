/**
 * The pod-template-hash of a Deployment's ReplicaSets (upstream pkg/controller/controller_utils.go
 * ComputeHash and k8s.io/apimachinery/pkg/util/rand SafeEncodeString): FNV-32a over the pod
 * template, then, when a collisionCount is given, over its 8-byte little-endian form (as
 * upstream writes it), the 32-bit sum printed in decimal and each character mapped to the
 * vowel-free alphabet. Upstream hashes Go's spew dump of the template struct; we hash the
 * template's canonical JSON (keys sorted), so the hashes differ from a real cluster's while
 * keeping every property the controller relies on (stable, template-sensitive, collision-bumped).
 */

/** The alphabet of SafeEncodeString: no vowels and no confusable characters. */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** Upstream rand.SafeEncodeString: each byte of `s` mapped to ALPHANUMS[byte % 27]. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) out += ALPHANUMS[byte % ALPHANUMS.length];
  return out;
}

/** JSON with object keys sorted (a stable rendering of a template); undefined members dropped. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => !absentInGo(v))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * A field a typed Go object would not tell from an absent one (apimachinery's Semantic
 * equality): null (a zero time such as a template's `creationTimestamp: null`, a nil pointer)
 * and an empty list.
 */
export function absentInGo(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}

/** FNV-32a of `bytes`, continuing from `hash` (default the offset basis). */
function fnv32a(bytes: Uint8Array, hash = 0x811c9dc5): number {
  let h = hash;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * Upstream ComputeHash: the hash of `template` (a PodTemplateSpec) and `collisionCount` (absent =
 * none), safe-encoded; used as the `pod-template-hash` label and the ReplicaSet name suffix.
 */
export function computeHash(template: unknown, collisionCount?: number | null): string {
  let h = fnv32a(Buffer.from(canonicalJson(template ?? {}), 'utf8'));
  if (collisionCount !== undefined && collisionCount !== null) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(bytes, h);
  }
  return safeEncodeString(String(h));
}
