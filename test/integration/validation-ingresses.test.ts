/** One case per rule of docs/validation/ingresses.md (Ingress, networking.k8s.io/v1 and extensions/v1beta1). */
import { useTestServer } from '../helpers/in-process.js';
import { invalidValue, merge, required, unsupported, validationSuite, type Call } from '../helpers/validation-cases.js';

const srv = useTestServer();
const INGS = '/apis/networking.k8s.io/v1/namespaces/default/ingresses';
const EXT = '/apis/extensions/v1beta1/namespaces/default/ingresses';
const ing = (name: string, spec: object, metadata: object = {}, at = INGS): Call => [
  'POST',
  at,
  { metadata: { name, ...metadata }, spec },
];
const svc = { service: { name: 'web', port: { number: 80 } } };
/** An Ingress whose default backend is `backend`. */
const withBackend = (name: string, backend: object): Call => ing(name, { defaultBackend: backend });
/** An Ingress with one rule of one path. */
const withPath = (name: string, path: object, host?: string): Call =>
  ing(name, { rules: [{ ...(host ? { host } : {}), http: { paths: [{ backend: svc, ...path }] } }] });
const withHost = (name: string, host: string): Call => withPath(name, { path: '/', pathType: 'Prefix' }, host);
const P0 = 'spec.rules[0].http.paths[0]';
const DB = 'spec.defaultBackend';
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const WILDCARD =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const statusOf = (name: string, lb: object): Call => [
  'PATCH',
  `${INGS}/${name}/status`,
  { status: { loadBalancer: { ingress: [lb] } } },
  merge,
];

validationSuite(
  'Ingress validation (one case per rule)',
  () => srv,
  [
    {
      rule: '1 defaultBackend or rules',
      call: ing('ving-1', {}),
      cause: invalidValue(
        'spec',
        '[]networking.IngressRule(nil)',
        'either `defaultBackend` or `rules` must be specified',
      ),
    },
    {
      rule: '2 a backend is a resource or a service',
      call: withBackend('ving-2', {}),
      cause: invalidValue(DB, '""', 'resource or service backend is required'),
    },
    {
      rule: '3 not both resource and service',
      call: withBackend('ving-3', { ...svc, resource: { kind: 'Bucket', name: 'b' } }),
      cause: invalidValue(DB, '""', 'cannot set both resource and service backends'),
    },
    {
      rule: '4 resource apiGroup a DNS subdomain',
      call: withBackend('ving-4', { resource: { apiGroup: 'Example.COM', kind: 'Bucket', name: 'b' } }),
      cause: invalidValue(`${DB}.resource.apiGroup`, '"Example.COM"', SUBDOMAIN),
    },
    {
      rule: '5 resource kind required',
      call: withBackend('ving-5', { resource: { kind: '', name: 'b' } }),
      cause: required(`${DB}.resource.kind`),
    },
    {
      rule: '6 resource kind a path segment name',
      call: withBackend('ving-6', { resource: { kind: 'a/b', name: 'b' } }),
      cause: invalidValue(`${DB}.resource.kind`, '"a/b"', "may not contain '/'"),
    },
    {
      rule: '7 resource name required',
      call: withBackend('ving-7', { resource: { kind: 'Bucket', name: '' } }),
      cause: required(`${DB}.resource.name`),
    },
    {
      rule: '8 resource name a path segment name',
      call: withBackend('ving-8', { resource: { kind: 'Bucket', name: '..' } }),
      cause: invalidValue(`${DB}.resource.name`, '".."', "may not be '..'"),
    },
    {
      rule: '9 service name required',
      call: withBackend('ving-9', { service: { name: '', port: { number: 80 } } }),
      cause: required(`${DB}.service.name`),
    },
    {
      rule: '10 service name a DNS-1035 label',
      call: withBackend('ving-10', { service: { name: '1web', port: { number: 80 } } }),
      cause: invalidValue(`${DB}.service.name`, '"1web"', DNS1035),
    },
    {
      rule: '11 not both port name and number',
      call: withBackend('ving-11', { service: { name: 'web', port: { name: 'http', number: 80 } } }),
      cause: invalidValue(DB, '""', 'cannot set both port name & port number'),
    },
    {
      rule: '12 port name an IANA service name',
      call: withBackend('ving-12', { service: { name: 'web', port: { name: 'http--alt' } } }),
      cause: invalidValue(`${DB}.service.port.name`, '"http--alt"', 'must not contain consecutive hyphens'),
    },
    {
      rule: '13 port number a port number',
      call: withBackend('ving-13', { service: { name: 'web', port: { number: 70000 } } }),
      cause: invalidValue(`${DB}.service.port.number`, '70000', 'must be between 1 and 65535, inclusive'),
    },
    {
      rule: '14 port name or number required',
      call: withBackend('ving-14', { service: { name: 'web', port: {} } }),
      cause: required(DB, 'port name or number is required'),
    },
    {
      rule: '15 pathType required',
      call: withPath('ving-15', { path: '/' }),
      cause: required(`${P0}.pathType`, 'pathType must be specified'),
    },
    {
      rule: '16 pathType Exact, ImplementationSpecific or Prefix',
      call: withPath('ving-16', { path: '/', pathType: 'Regex' }),
      cause: unsupported(`${P0}.pathType`, 'Regex', ['Exact', 'ImplementationSpecific', 'Prefix']),
    },
    {
      rule: '17 Exact and Prefix paths absolute',
      call: withPath('ving-17', { path: 'api', pathType: 'Exact' }),
      cause: invalidValue(`${P0}.path`, '"api"', 'must be an absolute path'),
    },
    {
      rule: "18 Exact and Prefix paths without '//', '/./', '/../', '%2f'",
      call: withPath('ving-18', { path: '/a//b', pathType: 'Prefix' }),
      cause: invalidValue(`${P0}.path`, '"/a//b"', "must not contain '//'"),
    },
    {
      rule: "19 Exact and Prefix paths not ending in '/..' or '/.'",
      call: withPath('ving-19', { path: '/a/..', pathType: 'Prefix' }),
      cause: invalidValue(`${P0}.path`, '"/a/.."', "cannot end with '/..'"),
    },
    {
      rule: '20 an ImplementationSpecific path absolute when set',
      call: withPath('ving-20', { path: 'api', pathType: 'ImplementationSpecific' }),
      cause: invalidValue(`${P0}.path`, '"api"', 'must be an absolute path'),
    },
    {
      rule: '21 a path backend is valid',
      call: withPath('ving-21', { path: '/', pathType: 'Prefix', backend: {} }),
      cause: invalidValue(`${P0}.backend`, '""', 'resource or service backend is required'),
    },
    {
      rule: '22 an http rule has paths',
      call: ing('ving-22', { rules: [{ host: 'a.example.com', http: { paths: [] } }] }),
      cause: required('spec.rules[0].http.paths'),
    },
    {
      rule: '23 host not an IP address',
      call: withHost('ving-23', '10.0.0.1'),
      cause: invalidValue('spec.rules[0].host', '"10.0.0.1"', 'must be a DNS name, not an IP address'),
    },
    {
      rule: '24 host a DNS subdomain',
      call: withHost('ving-24', 'Web.Example.com'),
      cause: invalidValue('spec.rules[0].host', '"Web.Example.com"', SUBDOMAIN),
    },
    {
      rule: '25 wildcard host a wildcard DNS subdomain',
      call: withHost('ving-25', 'foo.*.example.com'),
      cause: invalidValue('spec.rules[0].host', '"foo.*.example.com"', WILDCARD),
    },
    {
      rule: '26 TLS hosts DNS subdomains (or wildcards)',
      call: ing('ving-26', { defaultBackend: svc, tls: [{ hosts: ['*.Example.com'] }] }),
      cause: invalidValue('spec.tls[0].hosts[0]', '"*.Example.com"', WILDCARD),
    },
    {
      rule: '27 TLS secretName a Secret name',
      call: ing('ving-27', { defaultBackend: svc, tls: [{ secretName: 'Bad_Secret' }] }),
      cause: invalidValue('spec.tls[0].secretName', '"Bad_Secret"', SUBDOMAIN),
    },
    {
      rule: '28 ingressClassName a DNS subdomain',
      call: ing('ving-28', { defaultBackend: svc, ingressClassName: 'Nginx' }),
      cause: invalidValue('spec.ingressClassName', '"Nginx"', SUBDOMAIN),
    },
    {
      rule: '29 the class annotation matches ingressClassName',
      call: ing(
        'ving-29',
        { defaultBackend: svc, ingressClassName: 'nginx' },
        { annotations: { 'kubernetes.io/ingress.class': 'traefik' } },
      ),
      cause: invalidValue(
        'annotations.kubernetes.io/ingress.class',
        '"traefik"',
        'must match `ingressClassName` when both are specified',
      ),
    },
    {
      rule: '30 status ip an IP address',
      setup: [withBackend('ving-30', svc)],
      call: statusOf('ving-30', { ip: '10.0.0.300' }),
      cause: invalidValue(
        'status.loadBalancer.ingress[0].ip',
        '"10.0.0.300"',
        'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ),
    },
    {
      rule: '31 status hostname a DNS subdomain',
      setup: [withBackend('ving-31', svc)],
      call: statusOf('ving-31', { hostname: 'LB.example.com' }),
      cause: invalidValue('status.loadBalancer.ingress[0].hostname', '"LB.example.com"', SUBDOMAIN),
    },
    {
      rule: '32 status hostname not an IP address',
      setup: [withBackend('ving-32', svc)],
      call: statusOf('ving-32', { hostname: '10.0.0.1' }),
      cause: invalidValue(
        'status.loadBalancer.ingress[0].hostname',
        '"10.0.0.1"',
        'must be a DNS name, not an IP address',
      ),
    },
    {
      rule: '33 the same rules on update',
      setup: [withBackend('ving-33', svc)],
      call: ['PATCH', `${INGS}/ving-33`, { spec: { ingressClassName: 'Nginx' } }, merge],
      cause: invalidValue('spec.ingressClassName', '"Nginx"', SUBDOMAIN),
    },
    {
      rule: '34 extensions/v1beta1: an empty backend converts to none',
      call: ing('ving-34', { backend: { serviceName: '', servicePort: 0 } }, {}, EXT),
      cause: invalidValue(DB, '""', 'resource or service backend is required'),
    },
  ],
  [
    withBackend('ving-ok-1', svc),
    withBackend('ving-ok-2', { resource: { apiGroup: 'k8s.example.com', kind: 'Bucket', name: 'b' } }),
    withPath('ving-ok-3', { pathType: 'ImplementationSpecific' }),
    withHost('ving-ok-4', '*.example.com'),
    ing('ving-ok-5', { defaultBackend: svc, tls: [{ hosts: ['*.example.com'], secretName: 'tls' }] }),
    ing('ving-ok-6', { backend: { serviceName: 'web', servicePort: 'http' } }, {}, EXT),
  ],
);
