/**
 * The function environment rules are compiled in: upstream's base environment
 * (k8s.io/apiserver pkg/cel/environment/base.go) as far as this package implements it. `stored`
 * is the environment of rules already stored (every library of this server's version, 1.33);
 * `new` the one for rules being written, at the compatibility version (1.32: no semver yet).
 */
import { FunctionRegistry } from './functions.js';
import { CORE, OPTIONAL } from './lib-core.js';
import { LISTS } from './lib-lists.js';
import { NETWORK } from './lib-ip.js';
import { QUANTITY } from './lib-quantity.js';
import { REGEX } from './lib-regex.js';
import { SEMVER } from './lib-semver.js';
import { SETS } from './lib-sets.js';
import { STRINGS } from './lib-strings.js';
import { STRING_FORMAT } from './lib-format-string.js';
import { URLS } from './lib-url.js';
import { FORMAT } from './lib-format.js';
import { TIME } from './stdlib-time.js';
import { STANDARD } from './stdlib.js';

/** Which environment: rules being created or updated (`new`) or rules already stored (`stored`). */
export type EnvKind = 'new' | 'stored';

const base = [
  CORE,
  STANDARD,
  TIME,
  OPTIONAL,
  STRINGS,
  STRING_FORMAT,
  LISTS,
  REGEX,
  URLS,
  QUANTITY,
  SETS,
  NETWORK,
  FORMAT,
];
const registries: Record<EnvKind, FunctionRegistry> = {
  new: new FunctionRegistry(base),
  stored: new FunctionRegistry([...base, SEMVER]),
};

/** The functions of environment `kind`. */
export function celFunctions(kind: EnvKind): FunctionRegistry {
  return registries[kind];
}
