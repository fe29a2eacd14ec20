/**
 * The resource table's contract: one ResourceDefinition per served resource, each with a
 * strategy for its per-kind rules (upstream k8s.io/apiserver pkg/registry/rest: RESTCreateStrategy,
 * RESTUpdateStrategy, RESTDeleteStrategy). Handlers, routes and discovery are derived from it.
 */
import type { LocalConnect } from './connect-local.js';
import type { ProtoMessages } from '../api/protobuf/messages.js';
import type { z } from 'zod';
import type { ApiObject } from '../api/object.js';
import type { FieldError } from '../api/validation/field-errors.js';
import type { PatchMeta } from '../api/core/patch-meta.js';
import type { SchemaType } from '../api/apply/schema-type.js';
import type { Status } from '../api/status.js';
import type { TablePrinter } from '../api/table.js';
import type { ObjectStorage, Preconditions } from '../storage/types.js';
import type { AccessServices, WriterInfo } from './access.js';

/**
 * A kind's object as its zod schema describes it (`z.infer`), with the fields every stored
 * object has: what the kind's store hands out, and what its strategy, printer, validation,
 * admission plugins and controllers work on.
 */
export type KindObject<S extends z.ZodType> = z.infer<S> & ApiObject;

/** A watch's events and iterator as stores hand them to handlers. */
export type { WatchEvent, WatchIterator } from '../storage/types.js';

/** The verbs of discovery, in upstream's sorted order. */
export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

export const ALL_VERBS: readonly Verb[] = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

/**
 * Per-kind rules. Every hook receives a fresh copy it may mutate. `T` is the kind's object type
 * as its schema describes it (see {@link KindObject}); the table holds them as ApiObject (the
 * hooks are methods, so a Strategy<Pod> is a Strategy).
 */
export interface Strategy<T extends ApiObject = ApiObject> {
  /** Fill defaults as upstream does on decode, for every write (upstream SetDefaults_*). */
  defaults?(obj: T): void;
  /** Clear what clients may not set and apply create-time defaults (upstream PrepareForCreate). */
  prepareForCreate?(obj: T): void;
  /** Carry over what the main resource may not change, e.g. status (upstream PrepareForUpdate). */
  prepareForUpdate?(obj: T, old: T): void;
  /** Field problems of a new object (upstream Validate). */
  validate?(obj: T): FieldError[];
  /** Field problems of an update, including immutable fields (upstream ValidateUpdate). */
  validateUpdate?(obj: T, old: T): FieldError[];
  /**
   * For kinds deleted gracefully (pods): the grace period in seconds for a delete of `obj`
   * given the requested one (upstream CheckGracefulDelete); 0 deletes at once.
   */
  gracefulDelete?(obj: T, requestedSeconds: number | undefined): number;
}

/**
 * Where a connect subresource (logs, exec, proxy) sends a request, as its kind's rules find it
 * (upstream rest.Connecter / ResourceLocation): `none` answers 204 with no body (upstream's nil
 * location of a log request for an unscheduled pod); `stream` GETs `url` and streams the body
 * back as `contentType` (upstream LocationStreamer); `upgrade` tunnels an HTTP upgrade to `url`
 * and refuses plain requests (exec, attach, portforward); `proxy` forwards any request to `url`;
 * `local` is answered by the server itself: a text stream or a remote command session
 * (registry/connect-local.ts; e.g. the pods of simulated nodes).
 * `tls` = the backend speaks HTTPS without a verified certificate (upstream's kubelet client
 * with no CA). `describe` names the backend's owner for error details (e.g. a node).
 */
export type ConnectTarget =
  | { readonly mode: 'none' }
  | { readonly mode: 'local'; readonly local: LocalConnect }
  | {
      readonly mode: 'stream' | 'upgrade' | 'proxy';
      readonly url: URL;
      /** For `stream`: the response type (upstream text/plain) and the resource/name named by errors. */
      readonly contentType?: string;
      readonly resource?: string;
      readonly name?: string;
      /** Who owns the backend, put in the details of a failure to reach it. */
      readonly owner?: { readonly kind: string; readonly name: string };
    };

/**
 * What a kind's connect rule is given: the object addressed, the query and a way to read
 * objects. `T` is the type of the resource the subresource belongs to.
 */
export interface ConnectRequest<T extends ApiObject = ApiObject> {
  readonly namespace: string;
  /** The name segment as sent (`pod`, `pod:8080`, `https:svc:443`). */
  readonly name: string;
  readonly query: URLSearchParams;
  /** The raw path after the subresource (`/a/b/`), '' when none; only for `subpath` connects. */
  readonly subpath: string;
  /** Reads object `name` of the resource the subresource belongs to, in the request's namespace; throws ApiError 404 as a get does. */
  own(name: string): Promise<T>;
  /** Reads an object of the resource `def` (of the same group and version); throws ApiError 404 as a get does. */
  get<U extends ApiObject>(def: ResourceDefinition<U>, namespace: string, name: string): Promise<U>;
}

/** A connect subresource (upstream rest.Connecter): HTTP methods served and the location rule. */
export interface ConnectDefinition<T extends ApiObject = ApiObject> {
  /** HTTP methods accepted (upstream ConnectMethods). */
  readonly methods: readonly string[];
  /**
   * Served as upstream serves a Getter with a streamed answer (pods/log) rather than a
   * Connecter: discovery lists its verbs and OpenAPI has a `read` operation.
   */
  readonly getter?: boolean;
  /** Whether a trailing path is accepted (upstream NewConnectOptions' subpath, the proxies). */
  readonly subpath?: boolean;
  /** Find the backend; throws ApiError (400, 404, 503) as upstream's location functions. */
  locate(req: ConnectRequest<T>): Promise<ConnectTarget>;
}

/**
 * A subresource served at `.../{name}/<name>`. `update`-style subresources (status, finalize)
 * write only their part: `merge(new, old)` returns the object to store. `T` is the type of the
 * resource it belongs to; the request's view (a Scale) is an ApiObject until checked. `B` is
 * the body's type of a subresource create, once checked against `schema` (TokenRequest).
 */
export interface SubresourceDefinition<T extends ApiObject = ApiObject, B extends ApiObject = ApiObject> {
  readonly name: string;
  /** Kind of the request/response body. */
  readonly kind: string;
  /** apiVersion of the body when it is not the resource's own (e.g. `autoscaling/v1` Scale). */
  readonly apiVersion?: string;
  readonly verbs: readonly Verb[];
  /**
   * For get/update/patch subresources: build the stored object from the request (the view
   * after any patch) and the old object.
   */
  merge?(requested: ApiObject, old: T): T;
  /** A different view served by this subresource (Scale of a controller); absent = the object. */
  present?(obj: T): ApiObject;
  /** Field problems of a requested view (checked before merge). */
  validate?(requested: ApiObject): FieldError[];
  /** Run the resource's own update strategy on the merged object (Scale: generation bumps). */
  readonly useMainStrategy?: boolean;
  /**
   * Field problems of an update through this subresource, in place of the strategy's
   * validateUpdate (upstream's per-subresource strategies: pods/status, pods/ephemeralcontainers).
   */
  validateUpdate?(obj: T, old: T): FieldError[];
  /** Schema of a view with its own kind (Scale), for OpenAPI; absent when the kind is served itself. */
  readonly schema?: z.ZodType;
  /**
   * Makes this a connect subresource: requests go to a backend (node agent, pod, endpoint)
   * rather than to storage; `verbs` are then what discovery documents built after 1.10 list.
   */
  readonly connect?: ConnectDefinition<T>;
  /** A create served by the kind itself (pods/binding) rather than a write of the object. */
  create?(req: CreateRequest<T, B>): Promise<CreateAnswer>;
  /**
   * For a create: other apiVersions of `kind` it accepts besides `apiVersion` (upstream
   * rest.GroupVersionAcceptor: pods/eviction takes policy/v1 and policy/v1beta1 Evictions);
   * the body keeps the version it was sent in.
   */
  readonly acceptedVersions?: readonly string[];
}

/**
 * What a kind's own create is given (a decoded, name- and namespace-checked body). `T` is the
 * type of the resource addressed (for a subresource, of the resource it belongs to); `B` the
 * body's, once it passed the schema of the kind created.
 */
export interface CreateRequest<T extends ApiObject = ApiObject, B extends ApiObject = ApiObject> {
  /** The request's namespace, else the body's. */
  readonly namespace: string;
  /** The object named in the path of a subresource create (`pods/{name}/binding`), else ''. */
  readonly name: string;
  readonly body: B;
  readonly dryRun: boolean;
  /** The store of the resource addressed (the pods of `pods/{name}/binding`). */
  readonly target: ResourceStore<T>;
  /** The store of `def` (the pods a Binding updates). */
  store<U extends ApiObject>(def: ResourceDefinition<U>): ResourceStore<U>;
  /** Who asks (the review kinds answer about them); absent for the server's own creates. */
  readonly user?: WriterInfo;
  /** The server's authorizer and authenticator, for the review kinds. */
  readonly access?: AccessServices;
}

/** What a kind's own create answers: the code and the body. */
export interface CreateAnswer {
  readonly code: number;
  readonly body: unknown;
}

/**
 * A create handled by the kind itself (upstream rest.Creater of a non-generic REST): returns
 * the answer's code and body; throws ApiError as any write.
 */
export type CreateOverride<T extends ApiObject = ApiObject, B extends ApiObject = ApiObject> = (
  req: CreateRequest<T, B>,
) => Promise<CreateAnswer>;

/** The HTTP verb a store operation is reported as in errors (translate-error.ts ErrorContext). */
export type Operation = 'GET' | 'LIST' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'WATCH';

/** Options of a write that bypasses the kind's strategy (deletion marks, binding). */
export interface MutateOptions {
  readonly preconditions?: Preconditions;
  readonly dryRun?: boolean;
  /** The HTTP verb reported in errors (default PUT). */
  readonly operation?: Operation;
}

/** DeleteOptions (meta/v1) as sent in the body or the query. */
export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
  orphanDependents?: boolean;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  /** `dryRun=All`: report what the deletion would do without doing it. */
  dryRun?: boolean;
}

/** What a delete answers: the object (still present or as deleted) or a Success Status. */
export interface DeleteResult<T extends ApiObject = ApiObject> {
  readonly body: T | Status;
  readonly code: 200 | 202;
}

/**
 * One resource's store as a kind's own rules use it (its create override, its delete):
 * read an object, write it without the kind's strategy, remove it. GenericStore implements it;
 * `T` is the kind's object type.
 */
export interface ResourceStore<T extends ApiObject = ApiObject> {
  readonly def: ResourceDefinition<T>;
  /** Read one object. Throws ApiError 404 (and 400/504 as a get does). */
  get(namespace: string, name: string, resourceVersion?: string): Promise<T>;
  /** A guaranteed update by `change`, without the kind's strategy or admission. Throws ApiError 404, 409. */
  mutate(namespace: string, name: string, change: (current: T) => T | Promise<T>, opts?: MutateOptions): Promise<T>;
  /** Remove an object once its preconditions hold; returns it as it was. Throws ApiError 404, 409. */
  remove(namespace: string, name: string, opts?: MutateOptions): Promise<T>;
  /**
   * Every object of `namespace` ('' = every namespace), read consistently as an unpaged list
   * without selectors does (pods/eviction reads a namespace's PodDisruptionBudgets). Throws ApiError.
   */
  items(namespace: string): Promise<T[]>;
}

/** Selectable fields of an object for field selectors: `metadata.name` -> value. */
export type FieldSet = Readonly<Record<string, string>>;

/**
 * How a row served at another version than the one its objects are stored in converts them
 * (upstream decodes a request with its version's defaults and converts it through the internal
 * version into the storage version, and converts stored objects back on every read; here the
 * storage version is the hub). A row with a conversion keeps the storage row's strategy,
 * printer, field set, subresources and admission, which see stored objects; its schema, patch
 * metadata and protobuf messages are its own version's. Converters return new objects and never
 * change their argument (a watch cache's objects are shared).
 */
export interface VersionConversion {
  /** This version's defaults on a decoded request (upstream SetDefaults_* of the version). */
  defaults?(obj: ApiObject): void;
  /** A request of this version, defaulted, as stored (in the storage version). */
  toStorage(obj: ApiObject): ApiObject;
  /** A stored object as this version serves it. */
  fromStorage(obj: ApiObject): ApiObject;
}

/**
 * One row of the resource table. `T` is the kind's object type (KindObject of its schema): its
 * strategy, printer, field set, subresources and own create and delete work on it. The table
 * holds rows as ResourceDefinition (of ApiObject); what varies with `T` is declared as methods,
 * so a row of any kind is one.
 */
export interface ResourceDefinition<T extends ApiObject = ApiObject> {
  /** API group ('' for core) and version. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** What the kind is, for OpenAPI and `kubectl explain`. */
  readonly description?: string;
  /** Lower-case plural: the path segment and storage resource. */
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly namespaced: boolean;
  /** Storage prefix under the etcd prefix, e.g. `services/specs` (upstream special prefixes). */
  readonly storagePrefix: string;
  readonly verbs: readonly Verb[];
  readonly subresources: readonly SubresourceDefinition<T>[];
  /** Shape check of request bodies (strict: unknown fields are reported). */
  readonly schema: z.ZodType;
  /**
   * Replaces the check of request bodies against `schema` (custom resources: pruning by their
   * definition's structural schema): removes unknown fields from `obj` in place and returns
   * type problems (422 causes) and the unknown fields' paths (`spec.foo`).
   */
  fieldCheck?(obj: ApiObject): { errors: FieldError[]; unknown: string[] };
  /**
   * The kind's OpenAPI v3 schema as published, in place of one made from `schema` (custom
   * resources: their version's `openAPIV3Schema` with the standard fields added).
   */
  readonly openApiSchema?: Readonly<Record<string, unknown>>;
  /**
   * Media types this resource is served in besides JSON and YAML; false: none (custom
   * resources are not served as protobuf: 406 for an Accept of only protobuf, 415 for a
   * protobuf body). Default true.
   */
  readonly protobufServed?: boolean;
  /** Server-side printing: the kind's Table columns (upstream printers). */
  readonly printer: TablePrinter<T>;
  /**
   * Protobuf messages of the kind, its list and its subresource views (notation in
   * api/protobuf/messages.ts); empty when the kind has none.
   */
  readonly protobuf: ProtoMessages;
  /** Strategic-merge-patch metadata of the kind's lists (upstream patchStrategy tags). */
  readonly patchMeta: PatchMeta;
  /**
   * The type server-side apply converts configurations to (custom resources: from their
   * version's schema, api/apply/custom-resource-type.ts): an apply configuration with a field
   * it does not declare is refused. Absent: fields are not checked by apply.
   */
  readonly applyType?: SchemaType;
  readonly strategy: Strategy<T>;
  /** For a version served over another version's storage: the conversion between them. */
  readonly conversion?: VersionConversion;
  /**
   * For a version whose conversion needs I/O (a custom resource's conversion webhook): the
   * storage as this version sees it (objects read converted to this version, objects written
   * to the storage version; storage/converting-storage.ts). The store is built on what it
   * returns for the shared storage.
   */
  storageFor?(storage: ObjectStorage): ObjectStorage;
  /**
   * Objects are served as unstructured (custom resources): list items carry their apiVersion
   * and kind, as upstream's UnstructuredList encodes them; typed lists leave them out.
   */
  readonly unstructured?: boolean;
  /** Field selector values (beyond metadata.name / metadata.namespace, which are always there). */
  fieldSet?(obj: T): Record<string, string>;
  /** Field selector names this kind supports besides metadata.name / metadata.namespace. */
  readonly selectableFields?: readonly string[];
  /**
   * Whether the kind is served through a watch cache (default true; upstream turns it off for
   * events, DefaultWatchCacheSizes).
   */
  readonly watchCache?: boolean;
  /** Selectable fields the watch cache indexes (upstream pods: `spec.nodeName`). */
  readonly cacheIndexes?: readonly string[];
  /** Legacy field label aliases (e.g. pods `spec.host` -> `spec.nodeName`). */
  readonly fieldLabelAliases?: Readonly<Record<string, string>>;
  /** DELETE answers with the object rather than a Success Status (pods, namespaces, SCC). */
  readonly deleteReturnsObject?: boolean;
  /** For kinds that are not stored (Binding): the kind's own create (upstream: its REST Create). */
  create?(req: CreateRequest<T, T>): Promise<CreateAnswer>;
  /** The kind's name rule (upstream per-kind ValidateXName); default DNS-1123 subdomain. */
  readonly validateName?: (name: string) => string[];
  /**
   * For kinds whose deletion has its own lifecycle (namespaces: Terminating first), replaces
   * the generic delete of one object (upstream: the kind's REST Delete).
   */
  deleteHandler?(store: ResourceStore<T>, name: string, opts: DeleteOptions): Promise<DeleteResult<T>>;
}

/** `apiVersion` string of a definition: `v1` or `group/version`. */
export function apiVersionOf(def: Pick<ResourceDefinition, 'group' | 'version'>): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

/** Group and version of an `apiVersion` string (`v1` is the core group ''). */
export function groupVersionOf(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
