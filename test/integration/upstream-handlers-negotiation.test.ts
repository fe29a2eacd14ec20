/**
 * Accept headers as upstream negotiates them (issue 28): k8s.io/apiserver pkg/endpoints/handlers
 * negotiation/negotiate.go (NegotiateMediaTypeOptions over goautoneg.ParseAccept), with the
 * cases of negotiation/negotiate_test.go (TestNegotiate), apiserver_test.go (TestGetPretty) and
 * watch_test.go (TestWatchRead, TestWatchHTTPAccept). goautoneg sorts the clauses by q-value,
 * then a specific type before a wildcard of the same q, keeping the sent order otherwise; it
 * compares types as sent (case-sensitive) and does not drop q=0 clauses. A clause with a
 * parameter the endpoint cannot honour (`as=BOGUS`, `stream=` on a type without a stream
 * serializer) is skipped; `pretty=1` indents. A JSON watch answers `application/json`, without
 * `;stream=watch` (watch.go, "legacy behavior" in TestWatchRead).
 */
import { expect } from 'vitest';
import { useTestServer } from '../helpers/in-process.js';
import { CMS, cm, indented, runCases, type Answer, type HandlerCase } from './upstream-handler-cases.js';

const srv = useTestServer();

const JSON_TYPE = 'application/json';
const PB = 'application/vnd.kubernetes.protobuf';
const cmAt = `${CMS}/$N`;

/** A GET of ConfigMap `$N` with `headers` (and `query`), answered with status 200. */
function get(
  name: string,
  headers: Record<string, string>,
  contentType: string,
  check?: (res: Answer) => void,
  query = '',
): HandlerCase {
  return { name, setup: [cm()], method: 'GET', path: `${cmAt}${query}`, headers, status: 200, contentType, check };
}
/** A GET of ConfigMap `$N` that upstream answers 406 NotAcceptable. */
function notAcceptable(name: string, accept: string): HandlerCase {
  return {
    name,
    setup: [cm()],
    method: 'GET',
    path: cmAt,
    headers: { accept },
    status: 406,
    reason: 'NotAcceptable',
    message: 'only the following media types are accepted',
  };
}
const isConfigMap = (res: Answer) =>
  expect(res.body).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', data: { a: '1' } });
const pretty = (res: Answer) => expect(indented(res.text), res.text).toBe(true);
const compact = (res: Answer) => expect(indented(res.text), res.text).toBe(false);
const isYaml = (res: Answer) => expect(res.text).toContain('kind: ConfigMap');

const negotiate: HandlerCase[] = [
  get('no Accept: JSON (negotiate_test.go: TestNegotiate "pick a default")', {}, JSON_TYPE, isConfigMap),
  get('Accept "": JSON (negotiate_test.go: TestNegotiate)', { accept: '' }, JSON_TYPE, isConfigMap),
  get('Accept */*: JSON (negotiate_test.go: TestNegotiate)', { accept: '*/*' }, JSON_TYPE, isConfigMap),
  get(
    'Accept application/*: JSON (negotiate_test.go: TestNegotiate)',
    { accept: 'application/*' },
    JSON_TYPE,
    isConfigMap,
  ),
  get(
    'Accept application/json: JSON (negotiate_test.go: TestNegotiate)',
    { accept: JSON_TYPE },
    JSON_TYPE,
    isConfigMap,
  ),
  get(
    'Accept application/vnd.kubernetes.protobuf: protobuf (negotiate_test.go: TestNegotiate "application/protobuf")',
    { accept: PB },
    PB,
  ),
  get(
    'Accept "application/json; pretty=1": indented JSON (negotiate_test.go: TestNegotiate; apiserver_test.go: TestGetPretty)',
    { accept: 'application/json; pretty=1' },
    JSON_TYPE,
    pretty,
  ),
  get(
    'Accept "unrecognized/stuff,application/json; pretty=1": indented JSON (negotiate_test.go: TestNegotiate)',
    { accept: 'unrecognized/stuff,application/json; pretty=1' },
    JSON_TYPE,
    pretty,
  ),
  get(
    'Accept "application/json;as=BOGUS;v=v1beta1;g=meta.k8s.io, application/json": the plain ConfigMap (negotiate_test.go: TestNegotiate)',
    { accept: 'application/json;as=BOGUS;v=v1beta1;g=meta.k8s.io, application/json' },
    JSON_TYPE,
    isConfigMap,
  ),
  get(
    'Accept "application/BOGUS, application/json": JSON (negotiate_test.go: TestNegotiate)',
    { accept: 'application/BOGUS, application/json' },
    JSON_TYPE,
    isConfigMap,
  ),
  notAcceptable(
    'Accept "application" (no subtype): 406 (negotiate_test.go: TestNegotiate "application")',
    'application',
  ),
];

const prettyCases: HandlerCase[] = [
  get('Accept application/json: compact (apiserver_test.go: TestGetPretty)', { accept: JSON_TYPE }, JSON_TYPE, compact),
  get(
    'Accept application/json;pretty=0: compact (apiserver_test.go: TestGetPretty)',
    { accept: 'application/json;pretty=0' },
    JSON_TYPE,
    compact,
  ),
  get(
    'User-Agent kubectl: compact (apiserver_test.go: TestGetPretty)',
    { accept: JSON_TYPE, 'user-agent': 'kubectl' },
    JSON_TYPE,
    compact,
  ),
  get('?pretty=0: compact (apiserver_test.go: TestGetPretty)', { accept: JSON_TYPE }, JSON_TYPE, compact, '?pretty=0'),
  get(
    'User-Agent curl: indented (apiserver_test.go: TestGetPretty)',
    { accept: JSON_TYPE, 'user-agent': 'curl' },
    JSON_TYPE,
    pretty,
  ),
  get(
    'User-Agent Mozilla/5.0: indented (apiserver_test.go: TestGetPretty)',
    { accept: JSON_TYPE, 'user-agent': 'Mozilla/5.0' },
    JSON_TYPE,
    pretty,
  ),
  get(
    'User-Agent Wget: indented (apiserver_test.go: TestGetPretty)',
    { accept: JSON_TYPE, 'user-agent': 'Wget' },
    JSON_TYPE,
    pretty,
  ),
  get(
    'Accept application/json;pretty=1: indented (apiserver_test.go: TestGetPretty)',
    { accept: 'application/json;pretty=1' },
    JSON_TYPE,
    pretty,
  ),
  get('?pretty=1: indented (apiserver_test.go: TestGetPretty)', { accept: JSON_TYPE }, JSON_TYPE, pretty, '?pretty=1'),
  get(
    '?pretty=true: indented (apiserver_test.go: TestGetPretty)',
    { accept: JSON_TYPE },
    JSON_TYPE,
    pretty,
    '?pretty=true',
  ),
  get(
    'User-Agent curl with ?pretty=0: compact, the query decides (negotiate.go: isPrettyPrint)',
    { accept: JSON_TYPE, 'user-agent': 'curl/8' },
    JSON_TYPE,
    compact,
    '?pretty=0',
  ),
];

const quality: HandlerCase[] = [
  get(
    'Accept "application/yaml;q=0.5, application/json": JSON, the higher q wins (goautoneg ParseAccept; negotiate.go: NegotiateMediaTypeOptions)',
    { accept: 'application/yaml;q=0.5, application/json' },
    JSON_TYPE,
    isConfigMap,
  ),
  get(
    'Accept "application/json;q=0.5, application/yaml": YAML, the higher q wins (goautoneg ParseAccept)',
    { accept: 'application/json;q=0.5, application/yaml' },
    'application/yaml',
    isYaml,
  ),
  get(
    'Accept "*/*;q=0.1, application/yaml": YAML (goautoneg ParseAccept)',
    { accept: '*/*;q=0.1, application/yaml' },
    'application/yaml',
    isYaml,
  ),
  get(
    'Accept "text/html, */*;q=0.1": JSON (goautoneg ParseAccept; negotiate.go: NegotiateMediaTypeOptions)',
    { accept: 'text/html, */*;q=0.1' },
    JSON_TYPE,
    isConfigMap,
  ),
  get(
    'Accept "application/json, */*" (kubectl): JSON (negotiate.go: NegotiateMediaTypeOptions)',
    { accept: 'application/json, */*' },
    JSON_TYPE,
    isConfigMap,
  ),
  get(
    'Accept "application/vnd.kubernetes.protobuf,application/json" (client-go): protobuf (negotiate.go: NegotiateMediaTypeOptions)',
    { accept: `${PB},application/json` },
    PB,
  ),
  get(
    'Accept "*/*, application/yaml": YAML, a type before a wildcard of the same q (goautoneg acceptSlice.Less)',
    { accept: '*/*, application/yaml' },
    'application/yaml',
    isYaml,
  ),
  get(
    'Accept "application/*, application/yaml": YAML, a subtype before a wildcard of the same q (goautoneg acceptSlice.Less)',
    { accept: 'application/*, application/yaml' },
    'application/yaml',
    isYaml,
  ),
  get(
    'Accept "application/json;q=0": JSON, q=0 is only an order (negotiate.go: NegotiateMediaTypeOptions ignores Q)',
    { accept: 'application/json;q=0' },
    JSON_TYPE,
    isConfigMap,
  ),
  notAcceptable(
    'Accept "Application/JSON": 406, types are compared as sent (goautoneg ParseAccept; negotiate.go: NegotiateMediaTypeOptions)',
    'Application/JSON',
  ),
  get(
    'Accept "application/json;stream=watch" on a GET: JSON (negotiate.go: acceptMediaTypeOptions, JSON has a stream serializer)',
    { accept: 'application/json;stream=watch' },
    JSON_TYPE,
    isConfigMap,
  ),
  notAcceptable(
    'Accept text/yaml: 406, only application/yaml is a YAML type (codec_factory.go: newSerializersForScheme)',
    'text/yaml',
  ),
  notAcceptable(
    'Accept "application/yaml;stream=watch" on a GET: 406, YAML has no stream serializer (negotiate.go: acceptMediaTypeOptions)',
    'application/yaml;stream=watch',
  ),
  notAcceptable(
    'Accept "application/json;stream=other" on a GET: 406 (rest.go: RequestScope.AllowsStreamSchema)',
    'application/json;stream=other',
  ),
];

const watchAt = `${CMS}?watch=true&fieldSelector=metadata.name%3D$N`;
const watch = (name: string, accept: string | undefined, contentType: string): HandlerCase => ({
  name,
  method: 'GET',
  path: watchAt,
  headers: accept === undefined ? {} : { accept },
  watch: true,
  status: 200,
  contentType,
});
const watches: HandlerCase[] = [
  watch('watch with no Accept: Content-Type application/json (watch.go: serveWatchHandler)', undefined, JSON_TYPE),
  watch(
    'watch with Accept application/json: Content-Type application/json (watch_test.go: TestWatchRead)',
    JSON_TYPE,
    JSON_TYPE,
  ),
  watch(
    'watch with Accept application/json;stream=watch: Content-Type application/json, "legacy behavior" (watch_test.go: TestWatchRead)',
    'application/json;stream=watch',
    JSON_TYPE,
  ),
  watch(
    'watch with Accept application/vnd.kubernetes.protobuf: ...;stream=watch (watch_test.go: TestWatchRead)',
    PB,
    `${PB};stream=watch`,
  ),
  watch(
    'watch with Accept application/vnd.kubernetes.protobuf;stream=watch: the same (watch_test.go: TestWatchRead)',
    `${PB};stream=watch`,
    `${PB};stream=watch`,
  ),
  {
    name: 'watch with Accept application/XYZ: 406 (watch_test.go: TestWatchHTTPAccept)',
    method: 'GET',
    path: watchAt,
    headers: { accept: 'application/XYZ' },
    status: 406,
    reason: 'NotAcceptable',
  },
];

runCases('Accept (negotiate_test.go)', srv, 'na', negotiate);
runCases('pretty (apiserver_test.go TestGetPretty)', srv, 'np', prettyCases);
runCases('Accept quality values and wildcards (goautoneg)', srv, 'nq', quality);
runCases('watch Accept (watch_test.go)', srv, 'nw', watches);
