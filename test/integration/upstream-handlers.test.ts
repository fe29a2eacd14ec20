/**
 * Create, update and delete bodies decoded as upstream's handlers decode them (issue 28):
 * k8s.io/apiserver pkg/endpoints/handlers create.go, update.go and delete.go, with the cases
 * of pkg/endpoints/apiserver_test.go. Upstream's tests send their bodies with no Content-Type
 * at all: NegotiateInputSerializerForMediaType then takes the first supported type (JSON), and
 * a header is read through mime.ParseMediaType (parameters dropped, lower-cased). Missing
 * `kind`/`apiVersion` are defaulted from the URL (json serializer gvkWithDefaults); another
 * kind fails to decode into the URL's type (transformDecodeError, 400 "... cannot be handled
 * as a <Kind>"), another version of the group is 400 "does not match the expected API version".
 * Patch cases are in upstream-handlers-patch.test.ts, Accept cases in
 * upstream-handlers-negotiation.test.ts.
 */
import { expect } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import { CMS, cm, json, pod, PODS, RCS, rc, runCases, SCCS, type HandlerCase } from './upstream-handler-cases.js';

const srv = useTestServer();

const JSON_CT = { 'content-type': 'application/json' };
const created = (res: { body: any }, _srv: unknown, name: string) =>
  expect(res.body).toMatchObject({
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name, namespace: 'default' },
    data: { a: '1' },
  });
const newCm = json({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: '$N' }, data: { a: '1' } });
const storedData = async (srv: any, name: string) => (await srv.api('GET', `${CMS}/${name}`)).body.data;

const create: HandlerCase[] = [
  {
    name: 'POST with a JSON body and no Content-Type is read as JSON: 201 (apiserver_test.go: TestCreate, TestCreateInNamespace; negotiate.go: NegotiateInputSerializerForMediaType)',
    method: 'POST',
    path: CMS,
    body: newCm,
    status: 201,
    check: created,
  },
  {
    name: 'POST with Content-Type application/json; charset=utf-8: 201 (negotiate.go: NegotiateInputSerializerForMediaType, mime.ParseMediaType drops parameters)',
    method: 'POST',
    path: CMS,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: newCm,
    status: 201,
    check: created,
  },
  {
    name: 'POST with Content-Type APPLICATION/JSON: 201 (negotiate.go: mime.ParseMediaType lower-cases the type)',
    method: 'POST',
    path: CMS,
    headers: { 'content-type': 'APPLICATION/JSON' },
    body: newCm,
    status: 201,
    check: created,
  },
  {
    name: 'POST with Content-Type application/json;stream=watch: 201, only Accept weighs stream (negotiate.go: NegotiateInputSerializerForMediaType)',
    method: 'POST',
    path: CMS,
    headers: { 'content-type': 'application/json;stream=watch' },
    body: newCm,
    status: 201,
    check: created,
  },
  {
    name: 'POST a YAML body with Accept "application/yaml, application/json": 201 answered in YAML (apiserver_test.go: TestCreateYAML)',
    method: 'POST',
    path: CMS,
    headers: { 'content-type': 'application/yaml', accept: 'application/yaml, application/json' },
    body: 'kind: ConfigMap\napiVersion: v1\nmetadata:\n  name: $N\ndata:\n  a: "1"\n',
    status: 201,
    contentType: 'application/yaml',
    check: (res, _srv, name) => expect(res.text).toContain(`name: ${name}`),
  },
  {
    name: 'POST with Content-Type text/plain: 415 UnsupportedMediaType (negotiate.go: NegotiateInputSerializerForMediaType, NewUnsupportedMediaTypeError)',
    method: 'POST',
    path: CMS,
    headers: { 'content-type': 'text/plain' },
    body: newCm,
    status: 415,
    reason: 'UnsupportedMediaType',
    message: 'the body of the request was in an unknown format - accepted media types include',
  },
  {
    name: 'POST with Content-Type text/yaml: 415, only application/yaml is a YAML type (codec_factory.go: newSerializersForScheme; negotiate.go: NegotiateInputSerializerForMediaType)',
    method: 'POST',
    path: CMS,
    headers: { 'content-type': 'text/yaml' },
    body: 'metadata:\n  name: $N\n',
    status: 415,
    reason: 'UnsupportedMediaType',
  },
  {
    name: 'POST with Content-Type text/plain and Accept application/XYZ: 406, the output type is negotiated first (create.go: NegotiateOutputMediaType before NegotiateInputSerializer)',
    method: 'POST',
    path: CMS,
    headers: { 'content-type': 'text/plain', accept: 'application/XYZ' },
    body: newCm,
    status: 406,
    reason: 'NotAcceptable',
  },
  {
    name: 'POST a body without apiVersion: 201, defaulted from the URL (apiserver_test.go: TestCreateDefaultsAPIVersion)',
    method: 'POST',
    path: CMS,
    headers: JSON_CT,
    body: json({ kind: 'ConfigMap', metadata: { name: '$N' }, data: { a: '1' } }),
    status: 201,
    check: created,
  },
  {
    name: 'POST a body without kind and apiVersion: 201, both defaulted from the URL (create.go: decoder.Decode with defaultGVK = scope.Kind; json.go gvkWithDefaults)',
    method: 'POST',
    path: CMS,
    headers: JSON_CT,
    body: json({ metadata: { name: '$N' }, data: { a: '1' } }),
    status: 201,
    check: created,
  },
  {
    name: 'POST a body with apiVersion but no kind: 201, the kind defaulted from the URL (json.go: gvkWithDefaults)',
    method: 'POST',
    path: CMS,
    headers: JSON_CT,
    body: json({ apiVersion: 'v1', metadata: { name: '$N' }, data: { a: '1' } }),
    status: 201,
    check: created,
  },
  {
    name: 'POST a Pod to configmaps: 400 "... cannot be handled as a ConfigMap" (apiserver_test.go: TestCreateChecksDecode; rest.go: transformDecodeError)',
    method: 'POST',
    path: CMS,
    headers: JSON_CT,
    body: json({ kind: 'Pod', apiVersion: 'v1', metadata: { name: '$N' } }),
    status: 400,
    reason: 'BadRequest',
    message: 'Pod in version "v1" cannot be handled as a ConfigMap',
  },
  {
    name: 'POST a ConfigMap in apiVersion v2: 400 "... cannot be handled as a ConfigMap" (rest.go: transformDecodeError of the not-registered error)',
    method: 'POST',
    path: CMS,
    headers: JSON_CT,
    body: json({ kind: 'ConfigMap', apiVersion: 'v2', metadata: { name: '$N' } }),
    status: 400,
    reason: 'BadRequest',
    message: 'ConfigMap in version "v2" cannot be handled as a ConfigMap',
  },
  {
    name: 'POST an SCC in legacy v1 to security.platform.io/v1: 400 "does not match the expected API version" (apiserver_test.go: TestCreateChecksAPIVersion)',
    method: 'POST',
    path: SCCS,
    headers: JSON_CT,
    body: json({ kind: 'SecurityContextConstraints', apiVersion: 'v1', metadata: { name: '$N' } }),
    status: 400,
    reason: 'BadRequest',
    message: 'does not match the expected API version',
  },
  {
    name: 'POST an empty body: 400 BadRequest (create.go: decoder.Decode of no bytes; rest.go: transformDecodeError)',
    method: 'POST',
    path: CMS,
    headers: JSON_CT,
    body: '',
    status: 400,
    reason: 'BadRequest',
  },
  {
    name: 'POST an empty body with no Content-Type: 400 BadRequest (create.go: NegotiateInputSerializer takes JSON, the decode fails)',
    method: 'POST',
    path: CMS,
    body: '',
    status: 400,
    reason: 'BadRequest',
  },
  {
    name: 'POST a JSON array: 400 BadRequest (json/meta.go: SimpleMetaFactory.Interpret cannot read kind; rest.go: transformDecodeError)',
    method: 'POST',
    path: CMS,
    headers: JSON_CT,
    body: '[]',
    status: 400,
    reason: 'BadRequest',
  },
  {
    name: "POST with metadata.namespace other than the URL's: 400 (create.go: rest.EnsureObjectNamespaceMatchesRequestNamespace)",
    method: 'POST',
    path: CMS,
    headers: JSON_CT,
    body: json({ metadata: { name: '$N', namespace: 'other' } }),
    status: 400,
    reason: 'BadRequest',
    message: 'the namespace of the provided object does not match the namespace sent on the request',
  },
];

const update: HandlerCase[] = [
  {
    name: 'PUT with a JSON body and no Content-Type (no namespace in it) is read as JSON: 200 (apiserver_test.go: TestUpdate, TestUpdateAllowsMissingNamespace)',
    setup: [cm()],
    method: 'PUT',
    path: `${CMS}/$N`,
    body: json({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: '$N' }, data: { a: '2' } }),
    status: 200,
    check: async (res, srv, name) => {
      expect(res.body).toMatchObject({ metadata: { name, namespace: 'default' }, data: { a: '2' } });
      expect(await storedData(srv, name)).toEqual({ a: '2' });
    },
  },
  {
    name: 'PUT with Content-Type application/json; charset=utf-8: 200 (negotiate.go: NegotiateInputSerializerForMediaType)',
    setup: [cm()],
    method: 'PUT',
    path: `${CMS}/$N`,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: json({ metadata: { name: '$N' }, data: { a: '2' } }),
    status: 200,
  },
  {
    name: 'PUT a body without kind and apiVersion: 200, defaulted from the URL (update.go: decoder.Decode with defaultGVK)',
    setup: [cm()],
    method: 'PUT',
    path: `${CMS}/$N`,
    headers: JSON_CT,
    body: json({ metadata: { name: '$N' }, data: { a: '2' } }),
    status: 200,
  },
  {
    name: 'PUT a body without metadata.name: 400, the name must match the URL (apiserver_test.go: TestUpdateRequiresMatchingName; rest.go: checkName)',
    setup: [cm()],
    method: 'PUT',
    path: `${CMS}/$N`,
    headers: JSON_CT,
    body: json({ kind: 'ConfigMap', apiVersion: 'v1', data: { a: '2' } }),
    status: 400,
    reason: 'BadRequest',
  },
  {
    name: "PUT with metadata.namespace other than the URL's: 400 and nothing written (apiserver_test.go: TestUpdatePreventsMismatchedNamespace, TestUpdateDisallowsMismatchedNamespaceOnError)",
    setup: [cm()],
    method: 'PUT',
    path: `${CMS}/$N`,
    headers: JSON_CT,
    body: json({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: '$N', namespace: 'other' }, data: { a: '2' } }),
    status: 400,
    reason: 'BadRequest',
    check: async (_res, srv, name) => expect(await storedData(srv, name)).toEqual({ a: '1' }),
  },
  {
    name: 'PUT a Pod to a ConfigMap: 400 "... cannot be handled as a ConfigMap" (apiserver_test.go: TestUpdateChecksDecode)',
    setup: [cm()],
    method: 'PUT',
    path: `${CMS}/$N`,
    headers: JSON_CT,
    body: json({ kind: 'Pod', apiVersion: 'v1', metadata: { name: '$N' } }),
    status: 400,
    reason: 'BadRequest',
    message: 'cannot be handled as a ConfigMap',
  },
  {
    name: 'PUT a ReplicationController to rc/scale: 400 "... cannot be handled as a Scale" (apiserver_test.go: TestUpdateChecksDecode, on a subresource)',
    setup: [rc()],
    method: 'PUT',
    path: `${RCS}/$N/scale`,
    headers: JSON_CT,
    body: json({ kind: 'ReplicationController', apiVersion: 'v1', metadata: { name: '$N' }, spec: { replicas: 3 } }),
    status: 400,
    reason: 'BadRequest',
    message: 'cannot be handled as a Scale',
  },
  {
    name: 'PUT to rc/scale without kind and apiVersion: 200, an autoscaling/v1 Scale by the URL (update.go: decoder.Decode with defaultGVK = scope.Kind)',
    setup: [rc()],
    method: 'PUT',
    path: `${RCS}/$N/scale`,
    headers: JSON_CT,
    body: json({ metadata: { name: '$N' }, spec: { replicas: 3 } }),
    status: 200,
    check: (res) =>
      expect(res.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 } }),
  },
  {
    name: 'PUT an SCC in legacy v1 to security.platform.io/v1: 400 "does not match the expected API version" (apiserver_test.go: TestUpdateChecksAPIVersion)',
    method: 'PUT',
    path: `${SCCS}/$N`,
    headers: JSON_CT,
    body: json({ kind: 'SecurityContextConstraints', apiVersion: 'v1', metadata: { name: '$N' } }),
    status: 400,
    reason: 'BadRequest',
    message: 'does not match the expected API version',
  },
  {
    name: 'PUT an empty body: 400 BadRequest (update.go: decoder.Decode of no bytes)',
    setup: [cm()],
    method: 'PUT',
    path: `${CMS}/$N`,
    headers: JSON_CT,
    body: '',
    status: 400,
    reason: 'BadRequest',
  },
  {
    name: 'PUT with Content-Type text/plain: 415 UnsupportedMediaType (update.go: NegotiateInputSerializer)',
    setup: [cm()],
    method: 'PUT',
    path: `${CMS}/$N`,
    headers: { 'content-type': 'text/plain' },
    body: json({ metadata: { name: '$N' } }),
    status: 415,
    reason: 'UnsupportedMediaType',
  },
  {
    name: 'PUT of an object that does not exist (ConfigMaps are not created by update): 404 (apiserver_test.go: TestUpdateMissing)',
    method: 'PUT',
    path: `${CMS}/$N`,
    headers: JSON_CT,
    body: json({ metadata: { name: '$N' }, data: { a: '2' } }),
    status: 404,
    reason: 'NotFound',
  },
];

const graceOf = (res: { body: any }) => res.body?.metadata?.deletionGracePeriodSeconds;
const del: HandlerCase[] = [
  {
    name: 'DELETE with no body: 200, deleted (apiserver_test.go: TestDelete)',
    setup: [cm()],
    method: 'DELETE',
    path: `${CMS}/$N`,
    status: 200,
    check: async (_res, srv, name) => expect((await srv.api('GET', `${CMS}/${name}`)).status).toBe(404),
  },
  {
    name: 'DELETE with DeleteOptions in a body without Content-Type: the body is read as JSON (apiserver_test.go: TestDeleteWithOptions; delete.go: NegotiateInputSerializer)',
    setup: [pod()],
    method: 'DELETE',
    path: `${PODS}/$N`,
    body: json({ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 300 }),
    status: 200,
    check: (res) => expect(graceOf(res)).toBe(300),
  },
  {
    name: 'DELETE with gracePeriodSeconds in the query only: it applies (apiserver_test.go: TestDeleteWithOptionsQuery)',
    setup: [pod()],
    method: 'DELETE',
    path: `${PODS}/$N?gracePeriodSeconds=300`,
    status: 200,
    check: (res) => expect(graceOf(res)).toBe(300),
  },
  {
    name: 'DELETE with an empty body and Content-Type application/json: the query is read (delete.go: len(body) == 0)',
    setup: [pod()],
    method: 'DELETE',
    path: `${PODS}/$N?gracePeriodSeconds=300`,
    headers: JSON_CT,
    body: '',
    status: 200,
    check: (res) => expect(graceOf(res)).toBe(300),
  },
  {
    name: 'DELETE with options both in the query and in a body: the body wins, the query is not read (apiserver_test.go: TestDeleteWithOptionsQueryAndBody)',
    setup: [pod()],
    method: 'DELETE',
    path: `${PODS}/$N?gracePeriodSeconds=310`,
    headers: JSON_CT,
    body: json({ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 300 }),
    status: 200,
    check: (res) => expect(graceOf(res)).toBe(300),
  },
  {
    name: 'DELETE with a UID precondition in a DeleteOptions body: 409 Conflict, nothing deleted (delete.go: options decoded from the body)',
    setup: [cm()],
    method: 'DELETE',
    path: `${CMS}/$N`,
    headers: JSON_CT,
    body: json({ kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-the-uid' } }),
    status: 409,
    reason: 'Conflict',
    check: async (_res, srv, name) => expect((await srv.api('GET', `${CMS}/${name}`)).status).toBe(200),
  },
];

runCases('create (create.go)', srv, 'uc', create);
runCases('update (update.go)', srv, 'uu', update);
runCases('delete (delete.go)', srv, 'ud', del);
