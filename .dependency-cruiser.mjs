/**
 * The layers of src/ as a check (`npm run lint:deps`, part of `npm test`): dependency-cruiser
 * fails on an import that points up or sideways between layers, on any import cycle (type-only
 * imports included), on a contract file that imports an implementation, and on I/O in `api`.
 *
 * Layers, lowest first. A module may import its own folder and any layer below its own; never a
 * layer above it, nor another member of its own layer. The last layer composes the server
 * (flags -> config -> deps -> server, the library and testcontainers entry points): its members
 * may import each other and everything below. Tests (`*.test.ts`, `*.fixture.ts`) are
 * consumers of everything: they are left out of the graph. src/layers.test.ts shows that the
 * check fails on an upward import, a cycle, a contract importing an implementation and I/O in
 * `api`, and passes on the tree as it is.
 */
const LAYERS = [
  // zod schemas and types of every kind, meta, Status, selectors, names, field errors,
  // pure validation. No I/O.
  ['api'],
  // ApiError (-> Status) and its constructors.
  ['errors'],
  // Node utilities: address and range helpers (net), async context (runtime), TLS and HTTP/2
  // serving settings and certificates (serving), the build's version (build-info.ts).
  ['net', 'runtime', 'serving', 'build-info.ts'],
  // Settings: read by everything above.
  ['config'],
  // Object storage over the key-value stores, watch cache.
  ['storage'],
  // Logger and metrics (storage and watch-cache instrumentation).
  ['observability'],
  // Resource table contract, generic store, lifecycle rules.
  ['registry'],
  // Authentication: users, token file, x509, service account tokens.
  ['auth'],
  // One folder per kind: schema, strategy, table row.
  ['resources'],
  // Authorizers: RBAC (which reads the RBAC kinds of resources/rbac), AlwaysAllow/Deny.
  ['authorization'],
  // Admission plugins and their installation on the stores.
  ['admission'],
  // Namespace finalizer, garbage collector, compaction, leader election.
  ['controllers'],
  // Audit policy, events and backends (the middleware is in http/middleware/audit.ts).
  ['audit'],
  // API Priority and Fairness: classification, fair queuing, concurrency sharing, its config
  // consumer (the filter is in http/middleware/priority-and-fairness.ts).
  ['flowcontrol'],
  // Koa app, middleware, handlers, negotiation, patch, proxy, routes.
  ['http'],
  // Composition: deps.ts, server.ts, main.ts, index.ts, the library and testcontainers entries.
  ['deps.ts', 'server.ts', 'main.ts', 'index.ts', 'library', 'testcontainers'],
];

/** Files that hold a layer's contract: they import types of other contracts and of `api` only. */
const CONTRACTS = [
  'src/registry/types.ts',
  'src/registry/access.ts',
  'src/registry/connect-local.ts',
  'src/storage/types.ts',
  'src/storage/kv/types.ts',
];

/** Node modules that do I/O, which `api` may not import. */
const IO_MODULES = [
  'fs',
  'fs/promises',
  'net',
  'tls',
  'http',
  'https',
  'http2',
  'dns',
  'dns/promises',
  'dgram',
  'child_process',
  'cluster',
  'worker_threads',
  'readline',
  'os',
  'process',
  'inspector',
  'repl',
  'v8',
  'vm',
];
/** Packages of ours that do I/O (storage engines, servers, loggers, metrics, clients). */
const IO_PACKAGES = [
  'etcd3',
  'lmdb',
  'koa',
  '@koa/router',
  'koa-bodyparser',
  'pino',
  'prom-client',
  'selfsigned',
  'fs-native-extensions',
];

const TESTS = '\\.(test|fixture)\\.ts$';
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The path pattern of a layer member: a folder of src/ or a file directly in it. */
const pathOf = (member) => (member.endsWith('.ts') ? `^src/${escape(member)}$` : `^src/${escape(member)}/`);

const TOP = LAYERS.length - 1;
const layerRules = LAYERS.slice(0, TOP).flatMap((members, level) =>
  members.map((member) => {
    const above = LAYERS.slice(level + 1).flat();
    const beside = members.filter((m) => m !== member);
    const below = LAYERS.slice(0, level).flat();
    return {
      name: `layer-${member.replace(/\.ts$/, '')}`,
      comment: `src/${member} may import only its own ${member.endsWith('.ts') ? 'file' : 'folder'}${below.length ? ` and the layers below it: ${below.join(', ')}` : ' (it is the lowest layer)'}`,
      severity: 'error',
      from: { path: pathOf(member) },
      to: { path: [...above, ...beside].map(pathOf) },
    };
  }),
);

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only imports included: split the shared part into a lower module.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'in-a-layer',
      comment:
        'Every folder and file directly under src/ has a place in LAYERS (.dependency-cruiser.mjs): add a new one there.',
      severity: 'error',
      from: { path: '^src/', pathNot: LAYERS.flat().map(pathOf) },
      to: {},
    },
    {
      name: 'contract-imports-implementation',
      comment: `A contract file (${CONTRACTS.join(', ')}) imports only other contracts and api/, and only with \`import type\`.`,
      severity: 'error',
      from: { path: CONTRACTS.map((f) => `^${escape(f)}$`) },
      to: { path: '^src/', pathNot: ['^src/api/', ...CONTRACTS.map((f) => `^${escape(f)}$`)] },
    },
    {
      name: 'contract-value-import',
      comment: 'A contract file imports other modules of src/ with `import type` only.',
      severity: 'error',
      from: { path: CONTRACTS.map((f) => `^${escape(f)}$`) },
      to: { path: '^src/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'http-storage-through-registry',
      comment:
        'http reaches storage through the registry; it may name the key-value contract (a type, for the health check) and nothing else of storage.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/storage/', pathNot: CONTRACTS.map((f) => `^${escape(f)}$`) },
    },
    {
      name: 'http-storage-types-only',
      comment: 'http names storage contracts with `import type` only.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/storage/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'api-no-io',
      comment: 'api/ holds schemas, types and pure functions: no module that does I/O.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: {
        path: [
          ...IO_MODULES.map((m) => `^(node:)?${escape(m)}$`),
          ...IO_PACKAGES.map((p) => `^node_modules/${escape(p)}/`),
        ],
      },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves (a moved file left an import behind).',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Tests import across layers on purpose (and from test/); they are not part of the graph.
    exclude: { path: TESTS },
    doNotFollow: { path: 'node_modules' },
    includeOnly: ['^src/', '^node_modules/', '^(node:)?[a-z_/]+$'],
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
