/**
 * How the bootstrap configuration is kept (upstream k8s.io/kubernetes
 * pkg/registry/flowcontrol/ensurer strategy.go, 1.33: ReviseIfNeeded, shouldUpdateSpec,
 * shouldUpdateAnnotation, RemoveUnwantedObjects), as pure decisions on objects; the controller
 * (controllers/flowcontrol-bootstrap.ts) reads and writes them.
 *
 * - A mandatory object's spec is always brought back to the bootstrap one, and its
 *   `apf.kubernetes.io/autoupdate-spec` annotation set to `"true"`.
 * - A suggested object's spec is brought back only when the annotation says `true` (in any
 *   form Go's strconv.ParseBool reads), or, without a readable annotation, when its generation
 *   is 1 (its spec was never changed); the annotation is then set to what was decided.
 * - An object the bootstrap set no longer names is deleted only when its annotation reads true.
 */
import type { ApiObject } from '../../api/object.js';
import { AUTO_UPDATE_ANNOTATION } from './names.js';

/** Go's strconv.ParseBool: the boolean `value` spells, or undefined when it spells none. */
export function parseGoBool(value: string | undefined | null): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

const annotationOf = (obj: ApiObject) => obj.metadata.annotations?.[AUTO_UPDATE_ANNOTATION];

/** shouldUpdateSpec: whether a suggested object follows the bootstrap spec. */
function followsBootstrap(current: ApiObject): boolean {
  return parseGoBool(annotationOf(current)) ?? current.metadata.generation === 1;
}

/**
 * ReviseIfNeeded: the object to write in place of `current` (a copy, with the bootstrap spec
 * and the annotation as decided), or undefined when it is as it should be. `specEqualish`
 * says whether `current`'s spec is the bootstrap's once defaulted (kind-specific).
 */
export function revision<T extends ApiObject>(
  current: T,
  bootstrap: T,
  mandatory: boolean,
  specEqualish: (expected: T, actual: T) => boolean,
): T | undefined {
  const autoUpdate = mandatory || followsBootstrap(current);
  const annotationStale = parseGoBool(annotationOf(current)) !== autoUpdate;
  const specStale = autoUpdate && !specEqualish(bootstrap, current);
  if (!annotationStale && !specStale) return undefined;
  const revised = structuredClone(current);
  if (specStale) Object.assign(revised, { spec: structuredClone(bootstrap.spec) });
  if (annotationStale)
    revised.metadata.annotations = { ...revised.metadata.annotations, [AUTO_UPDATE_ANNOTATION]: String(autoUpdate) };
  return revised;
}

/** RemoveUnwantedObjects' choice: an object not named by the bootstrap set whose annotation reads true. */
export function isUnwanted(obj: ApiObject, bootstrapNames: ReadonlySet<string>): boolean {
  return !bootstrapNames.has(obj.metadata.name ?? '') && parseGoBool(annotationOf(obj)) === true;
}
