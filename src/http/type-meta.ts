/**
 * What decoding an object of one kind and version into an endpoint's kind answers (upstream: the
 * JSON serializer fills missing parts from the endpoint, runtime.UseOrCreateObject refuses kinds
 * the scheme does not know, and the versioning codec converts known ones or fails). Shared by
 * the create/update body check and the patched-object check, which word the failure
 * differently (rest.go transformDecodeError; patch.go's 422 on `patch`).
 */
import { groupVersionOf } from '../registry/types.js';

/** Whether the server knows `kind` in `apiVersion` (the registry's servesKind). */
export type KnownKinds = (apiVersion: string, kind: string) => boolean;

/** The Go package of a group's internal types, as conversion errors name it (`core.ConfigMap`). */
function internalPackage(apiVersion: string): string {
  const { group } = groupVersionOf(apiVersion);
  return group === '' ? 'core' : group.split('.')[0]!;
}

/**
 * How an object that says `dataKind`/`dataVersion` (either may be '' for absent: taken from the
 * endpoint) decodes as `kind` in `apiVersion`: `same`; `otherVersion` (the same kind in another
 * version the server knows: it converts); or `failed` with the decoder's error text (`no kind
 * "X" is registered for version "v2" ...`, or `converting (v1.Pod) to (core.ConfigMap): unknown
 * conversion`).
 */
export function decodeAs(
  dataKind: string,
  dataVersion: string,
  kind: string,
  apiVersion: string,
  knows: KnownKinds,
): { outcome: 'same' | 'otherVersion' } | { outcome: 'failed'; error: string; kind: string; version: string } {
  const k = dataKind || kind;
  const av = dataVersion || apiVersion;
  if (k === kind && av === apiVersion) return { outcome: 'same' };
  const { version } = groupVersionOf(av);
  if (!knows(av, k))
    return {
      outcome: 'failed',
      kind: k,
      version,
      error: `no kind "${k}" is registered for version "${av}" in scheme "ck-apiserver"`,
    };
  if (k !== kind)
    return {
      outcome: 'failed',
      kind: k,
      version,
      error: `converting (${version}.${k}) to (${internalPackage(apiVersion)}.${kind}): unknown conversion`,
    };
  return { outcome: 'otherVersion' };
}
