/** The request bodies that crashed the process or answered 5xx before bodies were bounded (issue #9). */
export interface HostileRequest {
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly contentType: string;
  readonly body: string;
}

const CMS = '/api/v1/namespaces/default/configmaps';
const CM = `${CMS}/target`;
const deepObject = (d: number) => '{"a":'.repeat(d) + '1' + '}'.repeat(d);

export const HOSTILE_REQUESTS: readonly HostileRequest[] = [
  {
    label: 'yaml flow sequences 1000 deep',
    method: 'POST',
    path: CMS,
    contentType: 'application/yaml',
    body: '['.repeat(1000) + ']'.repeat(1000),
  },
  {
    label: 'yaml flow mappings 2000 deep',
    method: 'POST',
    path: CMS,
    contentType: 'application/yaml',
    body: '{a: '.repeat(2000) + '1' + '}'.repeat(2000),
  },
  {
    label: 'yaml compact sequences 3000 deep',
    method: 'PUT',
    path: CM,
    contentType: 'application/yaml',
    body: '- '.repeat(3000) + 'x',
  },
  {
    label: 'yaml explicit keys 2000 deep',
    method: 'POST',
    path: CMS,
    contentType: 'application/yaml',
    body: '? '.repeat(2000) + 'x',
  },
  {
    label: 'yaml block mappings 1500 deep',
    method: 'POST',
    path: CMS,
    contentType: 'application/yaml',
    body: Array.from({ length: 1500 }, (_, i) => ' '.repeat(i) + 'a:').join('\n') + ' 1',
  },
  {
    label: 'json object 10000 deep',
    method: 'POST',
    path: CMS,
    contentType: 'application/json',
    body: `{"metadata":{"name":"d"},"data":${deepObject(10_000)}}`,
  },
  {
    label: 'json arrays 100000 deep',
    method: 'PUT',
    path: CM,
    contentType: 'application/json',
    body: '['.repeat(100_000) + ']'.repeat(100_000),
  },
  {
    label: 'merge patch 10000 deep',
    method: 'PATCH',
    path: CM,
    contentType: 'application/merge-patch+json',
    body: `{"data":${deepObject(10_000)}}`,
  },
  {
    label: 'strategic merge patch 10000 deep',
    method: 'PATCH',
    path: CM,
    contentType: 'application/strategic-merge-patch+json',
    body: `{"data":${deepObject(10_000)}}`,
  },
  {
    label: 'json patch value 10000 deep',
    method: 'PATCH',
    path: CM,
    contentType: 'application/json-patch+json',
    body: `[{"op":"add","path":"/data/x","value":${deepObject(10_000)}}]`,
  },
];
