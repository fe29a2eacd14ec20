/**
 * The resource table's contract: one ResourceDefinition per served resource, each with a
 * strategy for its per-kind rules (upstream k8s.io/apiserver pkg/registry/rest: RESTCreateStrategy,
 * RESTUpdateStrategy, RESTDeleteStrategy). Handlers, routes and discovery are derived from it.
 */
import type { ProtoMessages } from '../api/protobuf/messages.js';
import type { z } from 'zod';
import type { ApiObject } from '../api/object.js';
import type { FieldError } from '../api/validation/field-errors.js';
import type { PatchMeta } from '../api/core/patch-meta.js';
import type { Status } from '../api/status.js';
import type { TablePrinter } from '../api/table.js';
import type { Preconditions } from '../storage/types.js';
import type { AccessServices, WriterInfo } from './access.js';

/**
 * A kind's object as its zod schema describes it (`z.infer`), with the fields every stored
 * object has: what strategies, printers and admission plugins of the kind work on.
 */
export type KindObject<S extends z.ZodType> = z.infer<S> & ApiObject;

/** A watch's events and iterator as stores hand them to handlers. */
export type { WatchEvent, WatchIterator } from '../storage/types.js';

/** The verbs of discovery, in upstream's sorted order. */
export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

export const ALL_VERBS: readonly Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/**
 * Per-kind rules. Every hook receives a fresh copy it may mutate. `T` is the kind's object type
 * as its schema describes it (see {@link KindObject}); the table holds them as ApiObject.
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
 * and refuses plain requests (exec, attach, portforward); `proxy` forwards any request to `url`.
 * `tls` = the backend speaks HTTPS without a verified certificate (upstream's kubelet client
 * with no CA). `describe` names the backend's owner for error details (e.g. a node).
 */
export type ConnectTarget =
  | { readonly mode: 'none' }
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

/** What a kind's connect rule is given: the object addressed, the query and a way to read others. */
export interface ConnectRequest {
  readonly namespace: string;
  /** The name segment as sent (`pod`, `pod:8080`, `https:svc:443`). */
  readonly name: string;
  readonly query: URLSearchParams;
  /** The raw path after the subresource (`/a/b/`), '' when none; only for `subpath` connects. */
  readonly subpath: string;
  /** Reads an object of another (or the same) resource; throws ApiError 404 as a get does. */
  get(resource: string, namespace: string, name: string): Promise<ApiObject>;
}

/** A connect subresource (upstream rest.Connecter): HTTP methods served and the location rule. */
export interface ConnectDefinition {
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
  locate(req: ConnectRequest): Promise<ConnectTarget>;
}

/**
 * A subresource served at `.../{name}/<name>`. `update`-style subresources (status, finalize)
 * write only their part: `merge(new, old)` returns the object to store.
 */
export interface SubresourceDefinition {
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
  readonly merge?: (requested: ApiObject, old: ApiObject) => ApiObject;
  /** A different view served by this subresource (Scale of a controller); absent = the object. */
  readonly present?: (obj: ApiObject) => ApiObject;
  /** Field problems of a requested view (checked before merge). */
  readonly validate?: (requested: ApiObject) => FieldError[];
  /** Run the resource's own update strategy on the merged object (Scale: generation bumps). */
  readonly useMainStrategy?: boolean;
  /** Schema of a view with its own kind (Scale), for OpenAPI; absent when the kind is served itself. */
  readonly schema?: z.ZodType;
  /**
   * Makes this a connect subresource: requests go to a backend (node agent, pod, endpoint)
   * rather than to storage; `verbs` are then what discovery documents built after 1.10 list.
   */
  readonly connect?: ConnectDefinition;
  /** A create served by the kind itself (pods/binding) rather than a write of the object. */
  readonly create?: CreateOverride;
}

/** What a kind's own create is given (a decoded, name- and namespace-checked body). */
export interface CreateRequest {
  /** The request's namespace, else the body's. */
  readonly namespace: string;
  /** The object named in the path of a subresource create (`pods/{name}/binding`), else ''. */
  readonly name: string;
  readonly body: ApiObject;
  readonly dryRun: boolean;
  /** The core/v1 store of `resource` (the pods a binding updates). */
  store(resource: string): ResourceStore;
  /** Who asks (the review kinds answer about them); absent for the server's own creates. */
  readonly user?: WriterInfo;
  /** The server's authorizer and authenticator, for the review kinds. */
  readonly access?: AccessServices;
}

/**
 * A create handled by the kind itself (upstream rest.Creater of a non-generic REST): returns
 * the answer's code and body; throws ApiError as any write.
 */
export type CreateOverride = (req: CreateRequest) => Promise<{ code: number; body: unknown }>;

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
export interface DeleteResult {
  readonly body: ApiObject | Status;
  readonly code: 200 | 202;
}

/**
 * One resource's store as a kind's own rules use it (its create override, its delete):
 * read an object, write it without the kind's strategy, remove it. GenericStore implements it.
 */
export interface ResourceStore {
  readonly def: ResourceDefinition;
  /** Read one object. Throws ApiError 404 (and 400/504 as a get does). */
  get(namespace: string, name: string, resourceVersion?: string): Promise<ApiObject>;
  /** A guaranteed update by `change`, without the kind's strategy or admission. Throws ApiError 404, 409. */
  mutate(namespace: string, name: string, change: (current: ApiObject) => ApiObject | Promise<ApiObject>, opts?: MutateOptions): Promise<ApiObject>;
  /** Remove an object once its preconditions hold; returns it as it was. Throws ApiError 404, 409. */
  remove(namespace: string, name: string, opts?: MutateOptions): Promise<ApiObject>;
}

/** Selectable fields of an object for field selectors: `metadata.name` -> value. */
export type FieldSet = Readonly<Record<string, string>>;

export interface ResourceDefinition {
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
  readonly subresources: readonly SubresourceDefinition[];
  /** Shape check of request bodies (strict: unknown fields are reported). */
  readonly schema: z.ZodType;
  /** Server-side printing: the kind's Table columns (upstream printers). */
  readonly printer: TablePrinter;
  /**
   * Protobuf messages of the kind, its list and its subresource views (notation in
   * api/protobuf/messages.ts); empty when the kind has none.
   */
  readonly protobuf: ProtoMessages;
  /** Strategic-merge-patch metadata of the kind's lists (upstream patchStrategy tags). */
  readonly patchMeta: PatchMeta;
  readonly strategy: Strategy;
  /** Field selector values (beyond metadata.name / metadata.namespace, which are always there). */
  readonly fieldSet?: (obj: ApiObject) => Record<string, string>;
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
  readonly create?: CreateOverride;
  /** The kind's name rule (upstream per-kind ValidateXName); default DNS-1123 subdomain. */
  readonly validateName?: (name: string) => string[];
  /**
   * For kinds whose deletion has its own lifecycle (namespaces: Terminating first), replaces
   * the generic delete of one object (upstream: the kind's REST Delete).
   */
  readonly deleteHandler?: (store: ResourceStore, name: string, opts: DeleteOptions) => Promise<DeleteResult>;
}

/** `apiVersion` string of a definition: `v1` or `group/version`. */
export function apiVersionOf(def: Pick<ResourceDefinition, 'group' | 'version'>): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

/** Group and version of an `apiVersion` string (`v1` is the core group ''). */
export function groupVersionOf(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
