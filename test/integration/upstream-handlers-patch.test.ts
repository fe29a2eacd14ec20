/**
 * PATCH as upstream's handler answers it (issue 28): k8s.io/apiserver pkg/endpoints/handlers
 * patch.go, with the cases of pkg/endpoints/patchhandler_test.go, handlers/rest_test.go and
 * handlers/patch_test.go. The patch type is the Content-Type up to its first `;`, compared as
 * sent (no default, no lower-casing), before the name or the Accept header is looked at. A
 * strategic merge patch converts the patched map into the typed object (applyPatchToObject:
 * FromUnstructured), so a `kind` or `apiVersion` in it is ignored; JSON and merge patches decode
 * the patched JSON into the type (jsonPatcher: runtime.DecodeInto), so another kind or version
 * fails to decode: 422 Invalid on `patch` (upstream 1.10 answered that raw error as a 500).
 */
import { expect } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import { CMS, cm, json, RCS, rc, runCases, type HandlerCase } from './upstream-handler-cases.js';

const srv = useTestServer();

const MERGE = { 'content-type': 'application/merge-patch+json' };
const SMP = { 'content-type': 'application/strategic-merge-patch+json' };
const JSONPATCH = { 'content-type': 'application/json-patch+json' };
const labels = json({ metadata: { labels: { foo: 'bar' } } });
const cmAt = `${CMS}/$N`;
const scaleAt = `${RCS}/$N/scale`;
const dataOf = async (srv: any, name: string) => (await srv.api('GET', `${CMS}/${name}`)).body.data;
const replicasOf = async (srv: any, name: string) => (await srv.api('GET', `${RCS}/${name}`)).body.spec.replicas;

const contentTypes: HandlerCase[] = [
  {
    name: 'merge patch with Content-Type application/merge-patch+json; charset=UTF-8: 200, applied (patchhandler_test.go: TestPatch)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: { 'content-type': 'application/merge-patch+json; charset=UTF-8' },
    body: labels,
    status: 200,
    check: (res) => expect(res.body.metadata.labels).toEqual({ foo: 'bar' }),
  },
  {
    name: 'strategic merge patch with Content-Type ...; charset=utf-8: 200 (patch.go: PatchResource drops "; charset=")',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: { 'content-type': 'application/strategic-merge-patch+json; charset=utf-8' },
    body: labels,
    status: 200,
  },
  {
    name: 'PATCH with no Content-Type: 415 UnsupportedMediaType (patch.go: PatchResource, "" is no patch type)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    body: labels,
    status: 415,
    reason: 'UnsupportedMediaType',
    message: 'the body of the request was in an unknown format - accepted media types include',
  },
  {
    name: 'PATCH with Content-Type application/json: 415 UnsupportedMediaType (patch.go: PatchResource)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: { 'content-type': 'application/json' },
    body: labels,
    status: 415,
    reason: 'UnsupportedMediaType',
  },
  {
    name: 'PATCH with Content-Type Application/Merge-Patch+JSON: 415, the type is compared as sent (patch.go: PatchResource, sets.Has(contentType))',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: { 'content-type': 'Application/Merge-Patch+JSON' },
    body: labels,
    status: 415,
    reason: 'UnsupportedMediaType',
  },
  {
    name: 'PATCH with Content-Type text/plain and Accept application/XYZ: 415, the patch type is checked before the output type (patch.go: PatchResource before NegotiateOutputMediaType)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: { 'content-type': 'text/plain', accept: 'application/XYZ' },
    body: labels,
    status: 415,
    reason: 'UnsupportedMediaType',
  },
  {
    name: 'merge patch of an object that does not exist: 404 (patch.go: jsonPatcher.createNewObject)',
    method: 'PATCH',
    path: cmAt,
    headers: MERGE,
    body: labels,
    status: 404,
    reason: 'NotFound',
  },
];

const bodies: HandlerCase[] = [
  {
    name: 'merge patch changing metadata.name: 400 (patchhandler_test.go: TestPatchRequiresMatchingName)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: MERGE,
    body: json({ metadata: { name: '$N-other' } }),
    status: 400,
    reason: 'BadRequest',
  },
  {
    name: 'merge patch changing metadata.namespace: 400 (patch.go: patcher.applyPatch, rest.EnsureObjectNamespaceMatchesRequestNamespace)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: MERGE,
    body: json({ metadata: { namespace: 'other' } }),
    status: 400,
    reason: 'BadRequest',
    message: 'the namespace of the provided object does not match the namespace sent on the request',
  },
  {
    name: 'merge patch with ?force=true: 422 (patchhandler_test.go: TestForbiddenForceOnNonApply)',
    setup: [cm()],
    method: 'PATCH',
    path: `${cmAt}?force=true`,
    headers: MERGE,
    body: labels,
    status: 422,
  },
  {
    name: 'merge patch with ?force=false: 422 (patchhandler_test.go: TestForbiddenForceOnNonApply)',
    setup: [cm()],
    method: 'PATCH',
    path: `${cmAt}?force=false`,
    headers: MERGE,
    body: labels,
    status: 422,
  },
  {
    name: 'JSON patch whose test op holds: 200 (rest_test.go: TestJSONPatch "valid")',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: JSONPATCH,
    body: json([{ op: 'test', value: '$N', path: '/metadata/name' }]),
    status: 200,
  },
  {
    name: 'JSON patch that is not JSON: 400 BadRequest (rest_test.go: TestJSONPatch "invalid-syntax"; patch.go: validateAndTranscodePatch)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: JSONPATCH,
    body: 'invalid json patch',
    status: 400,
    reason: 'BadRequest',
  },
  {
    name: 'JSON patch testing a path that does not exist: 422 Invalid (rest_test.go: TestJSONPatch "invalid-semantics")',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: JSONPATCH,
    body: json([{ op: 'test', value: 'podA', path: '/invalid/path' }]),
    status: 422,
    reason: 'Invalid',
    message: 'the server rejected our request due to an error in our request',
  },
  {
    name: 'JSON patch testing index -1 of a list: 200 (rest_test.go: TestJSONPatch "valid-negative-index-patch")',
    setup: [cm({ finalizers: ['foo'] })],
    method: 'PATCH',
    path: cmAt,
    headers: JSONPATCH,
    body: json([{ op: 'test', value: 'foo', path: '/metadata/finalizers/-1' }]),
    status: 200,
  },
  {
    name: 'JSON patch replacing a key that does not exist: 200, added (rest_test.go: TestJSONPatch "replace-missing-path-allowed", json-patch v4)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: JSONPATCH,
    body: json([
      { op: 'replace', path: '/data/b', value: 'foo' },
      { op: 'test', path: '/data/b', value: 'foo' },
    ]),
    status: 200,
    check: (res) => expect(res.body.data).toEqual({ a: '1', b: 'foo' }),
  },
  {
    name: 'JSON patch with no operations: 200, nothing changed (patch.go: jsonPatcher.applyJSPatch)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: JSONPATCH,
    body: '[]',
    status: 200,
    check: (res) => expect(res.body.data).toEqual({ a: '1' }),
  },
  {
    name: 'strategic merge patch that is not JSON: 400 BadRequest (rest_test.go: TestStrategicMergePatchInvalid)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: SMP,
    body: 'barbaz',
    status: 400,
    reason: 'BadRequest',
  },
  {
    name: 'merge patch that is cut short: 400 BadRequest (patch_test.go: TestValidateAndTranscodePatch "MergePatchType invalid")',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: MERGE,
    body: '{"a": 1',
    status: 400,
    reason: 'BadRequest',
  },
  {
    name: 'merge patch with an empty body: 400 BadRequest (patch.go: validateAndTranscodePatch, json.Valid)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: MERGE,
    body: '',
    status: 400,
    reason: 'BadRequest',
  },
  {
    name: 'strategic merge patch with an empty body: 400 BadRequest (patch.go: validateAndTranscodePatch, json.Valid)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: SMP,
    body: '',
    status: 400,
    reason: 'BadRequest',
  },
  {
    name: 'JSON patch with an empty body: 400 BadRequest (patch.go: validateAndTranscodePatch, json.Valid)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: JSONPATCH,
    body: '',
    status: 400,
    reason: 'BadRequest',
  },
];

const kinds: HandlerCase[] = [
  {
    name: 'strategic merge patch of rc/scale naming kind ReplicationController: 200, scaled (patch.go: smpPatcher, applyPatchToObject FromUnstructured)',
    setup: [rc()],
    method: 'PATCH',
    path: scaleAt,
    headers: SMP,
    body: json({ kind: 'ReplicationController', spec: { replicas: 3 } }),
    status: 200,
    check: async (res, srv, name) => {
      expect(res.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 } });
      expect(await replicasOf(srv, name)).toBe(3);
    },
  },
  {
    name: 'strategic merge patch of a ConfigMap naming kind Pod: 200, still a ConfigMap (patch.go: applyPatchToObject FromUnstructured)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: SMP,
    body: json({ kind: 'Pod', data: { b: '2' } }),
    status: 200,
    check: async (res, srv, name) => {
      expect(res.body).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { a: '1', b: '2' } });
      expect(await dataOf(srv, name)).toEqual({ a: '1', b: '2' });
    },
  },
  {
    name: 'strategic merge patch of a ConfigMap naming apiVersion v2: 200, still v1 (patch.go: applyPatchToObject FromUnstructured)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: SMP,
    body: json({ apiVersion: 'v2', data: { b: '2' } }),
    status: 200,
    check: (res) => expect(res.body).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { b: '2' } }),
  },
  {
    name: 'merge patch of a ConfigMap to kind Pod: 422 Invalid, unchanged (patch.go: jsonPatcher.applyPatchToCurrentObject, DecodeInto fails)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: MERGE,
    body: json({ kind: 'Pod', data: { b: '2' } }),
    status: 422,
    reason: 'Invalid',
    check: async (_res, srv, name) => expect(await dataOf(srv, name)).toEqual({ a: '1' }),
  },
  {
    name: 'merge patch of a ConfigMap to apiVersion v2: 422 Invalid (patch.go: jsonPatcher.applyPatchToCurrentObject, DecodeInto fails)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: MERGE,
    body: json({ apiVersion: 'v2' }),
    status: 422,
    reason: 'Invalid',
  },
  {
    name: 'JSON patch replacing kind with Pod: 422 Invalid (patch.go: jsonPatcher.applyPatchToCurrentObject, DecodeInto fails)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: JSONPATCH,
    body: json([{ op: 'replace', path: '/kind', value: 'Pod' }]),
    status: 422,
    reason: 'Invalid',
  },
  {
    name: 'merge patch of rc/scale naming kind ReplicationController: 422 Invalid, not scaled (patch.go: DecodeInto of autoscaling/v1 ReplicationController fails)',
    setup: [rc()],
    method: 'PATCH',
    path: scaleAt,
    headers: MERGE,
    body: json({ kind: 'ReplicationController', spec: { replicas: 3 } }),
    status: 422,
    reason: 'Invalid',
    check: async (_res, srv, name) => expect(await replicasOf(srv, name)).toBe(1),
  },
  {
    name: 'JSON patch removing kind: 200, defaulted from the type patched (json.go: gvkWithDefaults in DecodeInto)',
    setup: [cm()],
    method: 'PATCH',
    path: cmAt,
    headers: JSONPATCH,
    body: json([{ op: 'remove', path: '/kind' }]),
    status: 200,
    check: (res) => expect(res.body).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' }),
  },
];

runCases('patch Content-Type (patch.go)', srv, 'pc', contentTypes);
runCases('patch bodies (patch.go)', srv, 'pb', bodies);
runCases('patch kind and apiVersion (patch.go)', srv, 'pk', kinds);
