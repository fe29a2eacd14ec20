/**
 * The policies every replica keeps in memory (upstream k8s.io/apiserver
 * pkg/admission/plugin/policy/generic/policy_source.go): the admissionregistration.k8s.io/v1
 * ValidatingAdmissionPolicies and their bindings, mirrored from their stores (list, then
 * watch). A hook is a policy that at least one binding names, with those bindings, its
 * expressions compiled (again only when its resourceVersion changes) and the store of its
 * paramKind; a paramKind not served is the hook's configuration error (`failed to find resource
 * referenced by paramKind: '<group>/<version>, Kind=<kind>'`), looked up again whenever the
 * served resources change; a paramKind whose apiVersion cannot be parsed leaves the policy out.
 * Bindings naming a policy that does not exist are ignored. Hooks are ordered by policy name,
 * bindings by name.
 */
import type { Logger } from 'pino';
import type { ApiObject } from '../../api/object.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { mirror } from '../../registry/mirror.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { WatchEvent } from '../../storage/types.js';
import { validatingAdmissionPolicies } from '../../resources/validatingadmissionpolicies/validatingadmissionpolicies.resource.js';
import { validatingAdmissionPolicyBindings } from '../../resources/validatingadmissionpolicybindings/validatingadmissionpolicybindings.resource.js';
import { compilePolicy, type CompiledPolicy } from './compile.js';
import type { ParamStore } from './params.js';
import type { Policy, PolicyBinding } from './types.js';
import { FirstRead } from '../first-read.js';

/** A policy with the bindings that name it (upstream generic.PolicyHook). */
export interface PolicyHook {
  readonly policy: Policy;
  readonly bindings: readonly PolicyBinding[];
  readonly compiled: CompiledPolicy;
  /** The store of the policy's paramKind (undefined without a paramKind or when it is not served). */
  readonly paramStore: ParamStore;
  /** Why the policy cannot be evaluated (its paramKind is not served). */
  readonly configurationError?: string;
}

/** Where the policies come from (upstream generic.Source). */
export interface PolicySource {
  /** Resolves true once policies and bindings were read (false after waiting too long, or when the read failed). */
  ready(): Promise<boolean>;
  /** Why the first read failed, if it did and has not succeeded since. */
  failureOfFirstRead?(): unknown;
  /** The hooks in force. */
  hooks(): readonly PolicyHook[];
}

/** Objects of one kind by name, kept from a mirror. */
class ByName<T extends ApiObject> {
  readonly items = new Map<string, T>();
  constructor(private readonly changed: () => void) {}
  reset(objects: readonly T[]): void {
    this.items.clear();
    for (const o of objects) this.items.set(o.metadata.name ?? '', o);
    this.changed();
  }
  apply(ev: WatchEvent<T>): void {
    const name = ev.object.metadata.name ?? '';
    if (ev.type === 'DELETED') this.items.delete(name);
    else if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.items.set(name, ev.object);
    else return;
    this.changed();
  }
}

/** `group/version` (or `version`) of an apiVersion; null when it has more than one slash (upstream ParseGroupVersion). */
function parseGroupVersion(apiVersion: string): { group: string; version: string } | null {
  const parts = apiVersion.split('/');
  if (parts.length > 2) return null;
  return parts.length === 2 ? { group: parts[0]!, version: parts[1]! } : { group: '', version: parts[0] ?? '' };
}

/** The policies and bindings, kept current from the registry's stores. */
export class ValidatingPolicySource implements PolicySource {
  private readonly policies = new ByName<Policy>(() => (this.dirty = true));
  private readonly bindings = new ByName<PolicyBinding>(() => (this.dirty = true));
  private readonly compiled = new Map<string, { resourceVersion: string; compiled: CompiledPolicy }>();
  private current: readonly PolicyHook[] = [];
  private dirty = true;
  private abort?: AbortController;
  private readonly firstRead = new FirstRead();
  /** Stops listening to the served rows (paramKinds are looked up again when they change). */
  private readonly unlisten: () => void;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly logger: Logger,
  ) {
    this.unlisten = registry.onChange(() => (this.dirty = true));
  }

  /** Begin mirroring (idempotent). Without the policy kinds served, no policy ever applies. */
  start(): void {
    if (this.abort) return;
    const abort = (this.abort = new AbortController());
    const onError = (err: unknown) => this.firstRead.fail(err);
    const follow = <T extends ApiObject>(store: GenericStore<T> | undefined, set: ByName<T>) =>
      store &&
      mirror(
        store,
        { onReset: (objs) => set.reset(objs), onEvent: (ev) => set.apply(ev), onError },
        abort.signal,
        this.logger,
      );
    this.firstRead.begin(
      Promise.all([
        follow(this.registry.find(validatingAdmissionPolicies), this.policies),
        follow(this.registry.find(validatingAdmissionPolicyBindings), this.bindings),
      ]),
    );
  }

  /** Stop mirroring; the policies known are kept. */
  stop(): void {
    this.abort?.abort();
    this.unlisten();
  }

  /** Whether the first read of both kinds has completed, waiting up to 10 s (false: not started or not read). */
  ready(): Promise<boolean> {
    return this.firstRead.ready();
  }

  /** Why the policies could not be read yet (storage unavailable), or undefined. */
  failureOfFirstRead(): unknown {
    return this.firstRead.failureOfFirstRead();
  }

  hooks(): readonly PolicyHook[] {
    if (this.dirty) {
      this.dirty = false;
      this.current = this.calculate();
    }
    return this.current;
  }

  /** The hooks from the policies and bindings known (upstream calculatePolicyData). */
  private calculate(): PolicyHook[] {
    const byPolicy = new Map<string, PolicyBinding[]>();
    for (const name of [...this.bindings.items.keys()].sort()) {
      const b = this.bindings.items.get(name)!;
      const policyName = b.spec?.policyName ?? '';
      byPolicy.set(policyName, [...(byPolicy.get(policyName) ?? []), b]);
    }
    const hooks: PolicyHook[] = [];
    for (const name of [...byPolicy.keys()].sort()) {
      const policy = this.policies.items.get(name);
      if (!policy) continue;
      const param = this.paramStoreOf(policy);
      if (param === null) continue;
      hooks.push({ policy, bindings: byPolicy.get(name)!, compiled: this.compile(policy), ...param });
    }
    for (const key of this.compiled.keys()) if (!byPolicy.has(key)) this.compiled.delete(key);
    return hooks;
  }

  /** The paramKind's store or the configuration error; null when its apiVersion cannot be parsed. */
  private paramStoreOf(policy: Policy): { paramStore: ParamStore; configurationError?: string } | null {
    const kind = policy.spec?.paramKind;
    if (!kind) return { paramStore: undefined };
    const gv = parseGroupVersion(kind.apiVersion ?? '');
    if (!gv) {
      this.logger.warn({ policy: policy.metadata.name }, 'failed to parse paramKind APIVersion');
      return null;
    }
    const def = this.registry.definitions.find(
      (d) => d.group === gv.group && d.version === gv.version && d.kind === kind.kind,
    );
    const paramStore = def && this.registry.lookup(def.group, def.version, def.plural);
    if (paramStore) return { paramStore };
    return {
      paramStore: undefined,
      configurationError: `failed to find resource referenced by paramKind: '${gv.group}/${gv.version}, Kind=${kind.kind ?? ''}'`,
    };
  }

  /** The policy compiled, once per resourceVersion. */
  private compile(policy: Policy): CompiledPolicy {
    const name = policy.metadata.name ?? '';
    const rv = policy.metadata.resourceVersion ?? '';
    const known = this.compiled.get(name);
    if (known && known.resourceVersion === rv) return known.compiled;
    const compiled = compilePolicy(policy.spec ?? {});
    this.compiled.set(name, { resourceVersion: rv, compiled });
    return compiled;
  }
}
