/**
 * Request shapes for the fuzz suite: every resource of the table on every path form
 * (collection, object, subresource, legacy watch, odd prefixes and extra segments), odd names
 * and namespaces, every verb and some methods no route has, query strings mixing valid and
 * invalid values of every parameter the server reads, and Accept headers.
 */
import fc from 'fast-check';
import type { ResourceDefinition } from '../../src/registry/types.js';
import {
  directiveArb,
  docRecipeArb,
  encodingArb,
  jsonPatchArb,
  PATCH_TYPES,
  APPLY_PATCH,
  type DocRecipe,
  type Encoding,
  type OpRecipe,
} from './bodies.js';

/** Placeholders filled when the case runs: the batch's namespace and the seeded object's name and resourceVersion. */
export const NS = '$NS';
export const SEED = 'seed';
export const RV = '$RV';

const ODD_NAMES = [
  '',
  'UPPER',
  'a..b',
  '-a',
  'a-',
  'x'.repeat(254),
  'x'.repeat(64),
  'ünï',
  '%2F',
  'a%2Fb',
  '..',
  '.',
  '%00',
  'a b',
  'a%20b',
  '%E2%80%AE',
  '💥',
  'a;b',
  'a?b',
  'seed%3Fwatch=true',
];
const ODD_NAMESPACES = ['kube-system', 'no-such-ns', 'UPPER', '', '..', 'x'.repeat(70), '%2F', 'ns%00'];
const SUBRESOURCES = ['status', 'scale', 'binding', 'finalize', 'log', 'exec', 'eviction', 'proxy', 'attach', 'x'];

export const nameArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(SEED) },
  { weight: 3, arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{0,12}[a-z0-9]$/) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD_NAMES) },
);

const namespaceArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: fc.constant(NS) },
  { weight: 2, arbitrary: fc.constant('default') },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_NAMESPACES) },
);

const rvValues = [
  '',
  '0',
  '1',
  RV,
  RV,
  '-1',
  'abc',
  '18446744073709551615',
  '18446744073709551616',
  '1e300',
  '0x10',
  ' 1',
];
const continueValues = [
  'garbage',
  Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1e300, start: 'a' })).toString('base64url'),
  Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1, start: '/registry/x' })).toString('base64url'),
  Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: -5, start: '../../' })).toString('base64url'),
  Buffer.from('{"v":').toString('base64url'),
  Buffer.from(JSON.stringify({ v: 'other', rv: 1, start: '' })).toString('base64url'),
];

/** Query parameters and the values tried for each (percent-encoded when sent). */
const PARAMS: Record<string, fc.Arbitrary<string>> = {
  resourceVersion: fc.oneof(
    { weight: 40, arbitrary: fc.constantFrom(...rvValues) },
    { weight: 1, arbitrary: fc.constant('99999999') },
  ),
  resourceVersionMatch: fc.constantFrom('NotOlderThan', 'Exact', 'bogus'),
  continue: fc.constantFrom(...continueValues),
  limit: fc.constantFrom('1', '2', '0', '-1', 'abc', '1e300', '500', '18446744073709551616'),
  labelSelector: fc.constantFrom(
    'app=seed',
    'a in (x,y)',
    '!a',
    'a!=b,c',
    '=',
    '(((',
    'a=' + 'x'.repeat(100),
    'a==b',
    'a notin ()',
    'a,b,',
    '🙂=1',
  ),
  fieldSelector: fc.constantFrom(
    'metadata.name=seed',
    'metadata.namespace!=x',
    'spec.nodeName=n',
    'bogus=1',
    'metadata.name==',
    '=,',
    'status.phase=Running',
    'type=Opaque',
  ),
  watch: fc.constantFrom('true', '1', 'false', 'x'),
  dryRun: fc.constantFrom('All', 'All', 'all', 'x', ''),
  fieldValidation: fc.constantFrom('Strict', 'Warn', 'Ignore', 'bogus', ''),
  gracePeriodSeconds: fc.constantFrom('0', '-1', '30', 'abc', '1e300', '9223372036854775808'),
  propagationPolicy: fc.constantFrom('Orphan', 'Background', 'Foreground', 'bogus'),
  orphanDependents: fc.constantFrom('true', 'false', 'x'),
  pretty: fc.constantFrom('true', '1', 'x'),
  export: fc.constantFrom('true', 'x'),
  exact: fc.constantFrom('true', 'false'),
  includeUninitialized: fc.constantFrom('true', 'x'),
  allowWatchBookmarks: fc.constantFrom('true', 'x'),
  timeoutSeconds: fc.constantFrom('1', '0', '-1', 'abc', '1e300'),
  sendInitialEvents: fc.constantFrom('true', 'false'),
  'x-unknown': fc.constantFrom('1', ''),
};

export const queryArb: fc.Arbitrary<[string, string][]> = fc
  .array(fc.tuple(fc.constantFrom(...Object.keys(PARAMS)), fc.nat()), { maxLength: 4 })
  .chain((picked) =>
    picked.length === 0
      ? fc.constant([])
      : fc.tuple(...picked.map(([k]) => PARAMS[k].map((v) => [k, v] as [string, string]))),
  );

const ACCEPTS = [
  undefined,
  'application/json',
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/vnd.ck.protobuf, application/json',
  'application/json;as=Table;v=v1;g=meta.k8s.io, application/json',
  'application/json;as=Table;v=v1beta1;g=meta.k8s.io',
  'text/html',
  'application/json;q=0',
  '*/*;q=abc',
];

/** The shape of a path. */
export type PathShape = 'collection' | 'object' | 'subresource' | 'legacy-watch' | 'extra' | 'all-namespaces';

/** One generated request, before placeholders are filled. */
export interface CaseRecipe {
  readonly plural: string;
  readonly shape: PathShape;
  readonly namespace: string;
  readonly name: string;
  readonly subresource: string;
  readonly method: string;
  readonly query: [string, string][];
  readonly accept?: string;
  readonly encoding: Encoding;
  readonly doc: DocRecipe;
  /** Base document: the stored object (updates, patches), a full or a minimal fixture, or another kind's. */
  readonly base: 'stored' | 'full' | 'minimal' | 'other';
  readonly patchType: string;
  readonly jsonPatch: OpRecipe[] | string;
  readonly directive: [string, Json] | null;
  readonly subset: number;
}
type Json = import('./mutations.js').Json;

const METHODS_BY_SHAPE: Record<PathShape, string[]> = {
  collection: ['GET', 'GET', 'POST', 'POST', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'],
  'all-namespaces': ['GET', 'POST', 'DELETE'],
  object: ['GET', 'PUT', 'PUT', 'PATCH', 'PATCH', 'PATCH', 'DELETE', 'POST', 'PROPFIND'],
  subresource: ['GET', 'PUT', 'PATCH', 'POST', 'DELETE'],
  'legacy-watch': ['GET', 'POST'],
  extra: ['GET', 'PUT', 'DELETE'],
};

/** Requests against the resources of `defs`. */
export function caseArb(defs: readonly ResourceDefinition[]): fc.Arbitrary<CaseRecipe> {
  return fc
    .record({
      plural: fc.constantFrom(...defs.map((d) => d.plural)),
      shape: fc.constantFrom<PathShape>(
        'collection',
        'collection',
        'object',
        'object',
        'object',
        'object',
        'subresource',
        'subresource',
        'legacy-watch',
        'extra',
        'all-namespaces',
      ),
      namespace: namespaceArb,
      name: nameArb,
      subresource: fc.oneof(fc.constantFrom(...SUBRESOURCES), fc.constant('status')),
      methodIndex: fc.nat(),
      query: queryArb,
      accept: fc.constantFrom(...ACCEPTS),
      encoding: encodingArb,
      doc: docRecipeArb,
      base: fc.constantFrom<CaseRecipe['base']>('stored', 'stored', 'full', 'minimal', 'minimal', 'other'),
      patchType: fc.oneof(
        { weight: 10, arbitrary: fc.constantFrom(...PATCH_TYPES) },
        { weight: 1, arbitrary: fc.constantFrom(APPLY_PATCH, 'application/json', 'text/plain', '') },
      ),
      jsonPatch: jsonPatchArb,
      directive: directiveArb,
      subset: fc.nat(),
    })
    .map(({ methodIndex, ...r }) => {
      const methods = METHODS_BY_SHAPE[r.shape];
      return { ...r, method: methods[methodIndex % methods.length] };
    });
}
