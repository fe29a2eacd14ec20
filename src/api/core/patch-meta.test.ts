/**
 * Patch metadata declared beside each field and derived from the schema: every kind's facts
 * (upstream 1.33 types.go `patchStrategy` / `patchMergeKey` tags and server-side apply
 * tags), the same in strategic merge (the row's PatchMeta), server-side apply (its list
 * types) and OpenAPI; declarations whose path or key is not in the schema fail.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { RESOURCE_TABLE } from '../../resources/table.js';
import { listInfo, openApiListTypes } from '../apply/type-info.js';
import { openApiDocument } from '../../http/routes/openapi.js';
import { apiVersionOf, type ResourceDefinition } from '../../registry/types.js';
import { strictObjectMeta } from '../meta-schema.js';
import { patchInfo, shapeOf } from './patch-info.js';
import { patchMetaOf, patchMetaProblems, type PatchMeta } from './patch-meta.js';
import { atomic, list, mergedList, obj, reqObj, reqStr, setList, str, strMap } from './schema-kit.js';

/** One line per node that declares something: `path facts`. */
function facts(meta: PatchMeta, path = ''): string[] {
  const own: string[] = [];
  if (meta.merge) own.push(`merge(${meta.merge.key ?? ''})`);
  if (meta.retainKeys) own.push('retainKeys');
  if (meta.listType) own.push(`listType(${meta.listType})`);
  if (meta.listMapKeys) own.push(`keys(${meta.listMapKeys.join(',')})`);
  if (meta.keyDefaults)
    own.push(
      `defaults(${Object.entries(meta.keyDefaults)
        .map(([k, v]) => `${k}=${v}`)
        .join(',')})`,
    );
  if (meta.mapType) own.push(meta.mapType);
  if (meta.replace) own.push('replace');
  const out = own.length ? [`${path} ${own.join(' ')}`] : [];
  for (const [name, child] of Object.entries(meta.fields ?? {}))
    out.push(...facts(child, path ? `${path}.${name}` : name));
  if (meta.items) out.push(...facts(meta.items, `${path}[]`));
  return out.sort();
}

const OBJECT_META = (at: string) => [
  `${at}.finalizers merge()`,
  `${at}.initializers.pending merge(name)`,
  `${at}.ownerReferences merge(uid)`,
];

const CONTAINER = (at: string) => [
  `${at} merge(name)`,
  `${at}[].env merge(name)`,
  ...['configMapKeyRef', 'fieldRef', 'resourceFieldRef', 'secretKeyRef'].map(
    (r) => `${at}[].env[].valueFrom.${r} atomic`,
  ),
  `${at}[].ports merge(containerPort) keys(containerPort,protocol) defaults(protocol=TCP)`,
  `${at}[].resources.claims listType(map) keys(name)`,
  `${at}[].volumeDevices merge(devicePath)`,
  `${at}[].volumeMounts merge(mountPath)`,
];
const SECRET_REFS = ['cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos'];
const NODE_SELECTOR = (at: string) => [`${at} atomic`, `${at}.nodeSelectorTerms[] atomic`];

/**
 * PodSpec: upstream 1.33 core/v1 types.go tags (`patchStrategy`/`patchMergeKey`, `+listType`,
 * `+structType=atomic` of LocalObjectReference, NodeSelector and NodeSelectorTerm); container
 * ports keyed by containerPort and protocol (TCP by default) for server-side apply.
 */
const POD_SPEC = (at: string) => [
  ...['containers', 'initContainers', 'ephemeralContainers'].flatMap((c) => CONTAINER(`${at}.${c}`)),
  `${at}.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[].preference atomic`,
  ...NODE_SELECTOR(`${at}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`),
  `${at}.hostAliases merge(ip)`,
  `${at}.imagePullSecrets merge(name)`,
  `${at}.imagePullSecrets[] atomic`,
  `${at}.nodeSelector atomic`,
  `${at}.resourceClaims merge(name) retainKeys`,
  `${at}.resources.claims listType(map) keys(name)`,
  `${at}.schedulingGates merge(name)`,
  `${at}.topologySpreadConstraints merge(topologyKey) keys(topologyKey,whenUnsatisfiable)`,
  `${at}.volumes merge(name) retainKeys`,
  ...SECRET_REFS.map((s) => `${at}.volumes[].${s}.secretRef atomic`),
  `${at}.volumes[].csi.nodePublishSecretRef atomic`,
  ...OBJECT_META(`${at}.volumes[].ephemeral.volumeClaimTemplate.metadata`),
  `${at}.volumes[].ephemeral.volumeClaimTemplate.spec.dataSource atomic`,
];
const TEMPLATE = (at: string) => [...OBJECT_META(`${at}.metadata`), ...POD_SPEC(`${at}.spec`)];
const CONTAINER_STATUSES = (at: string) => [
  `${at}[].allocatedResourcesStatus merge(name)`,
  `${at}[].allocatedResourcesStatus[].resources listType(map) keys(resourceID)`,
  `${at}[].resources.claims listType(map) keys(name)`,
  `${at}[].volumeMounts merge(mountPath)`,
];
/** PersistentVolumeSpec's tags (SecretReference and NodeSelector are atomic structs). */
const PV_SPEC = (at: string) => [
  ...SECRET_REFS.map((s) => `${at}.${s}.secretRef atomic`),
  ...['controllerExpand', 'controllerPublish', 'nodeExpand', 'nodePublish', 'nodeStage'].map(
    (r) => `${at}.csi.${r}SecretRef atomic`,
  ),
  ...NODE_SELECTOR(`${at}.nodeAffinity.required`),
];
const CONDITIONS = 'status.conditions merge(type)';
const SELECTED = (at: string) => ['spec.selector atomic', ...TEMPLATE(at), CONDITIONS];
const WEBHOOKS = [
  'webhooks merge(name)',
  'webhooks[].matchConditions merge(name)',
  'webhooks[].namespaceSelector atomic',
  'webhooks[].objectSelector atomic',
];
const MATCH_RESOURCES = (at: string) => [
  `${at} atomic`,
  ...['resourceRules', 'excludeResourceRules'].flatMap((r) => [`${at}.${r} listType(atomic)`, `${at}.${r}[] atomic`]),
  `${at}.namespaceSelector atomic`,
  `${at}.objectSelector atomic`,
];
const PEERS = (rule: string, peers: string) =>
  ['namespaceSelector', 'podSelector'].map((s) => `spec.${rule}[].${peers}[].${s} atomic`);

/** Every kind's facts beyond ObjectMeta's (the same under every group a kind is served in). */
const EXPECTED: Record<string, string[]> = {
  Binding: ['target atomic'],
  Endpoints: ['subsets[].ports[] atomic'],
  Event: ['involvedObject atomic', 'related atomic'],
  Namespace: [CONDITIONS],
  Node: ['spec.podCIDRs merge()', 'status.addresses merge(type)', CONDITIONS],
  PersistentVolumeClaim: ['spec.dataSource atomic', CONDITIONS],
  // claimRef is `+structType=granular` since ObjectReference became atomic.
  PersistentVolume: PV_SPEC('spec'),
  Pod: [
    ...POD_SPEC('spec'),
    CONDITIONS,
    ...['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses'].flatMap((c) =>
      CONTAINER_STATUSES(`status.${c}`),
    ),
    'status.hostIPs merge(ip) listType(atomic)',
    'status.podIPs merge(ip)',
    'status.resourceClaimStatuses merge(name) retainKeys',
  ],
  PodTemplate: TEMPLATE('template'),
  ReplicationController: SELECTED('spec.template'),
  ResourceQuota: ['spec.scopeSelector atomic'],
  ServiceAccount: ['secrets merge(name)', 'secrets[] atomic'],
  Service: ['spec.ports merge(port) keys(port,protocol) defaults(protocol=TCP)', 'spec.selector atomic', CONDITIONS],
  RoleBinding: ['roleRef atomic'],
  ClusterRoleBinding: ['roleRef atomic'],
  Deployment: SELECTED('spec.template'),
  ReplicaSet: SELECTED('spec.template'),
  DaemonSet: SELECTED('spec.template'),
  StatefulSet: [
    ...SELECTED('spec.template'),
    ...OBJECT_META('spec.volumeClaimTemplates[].metadata'),
    'spec.volumeClaimTemplates[].spec.dataSource atomic',
    'spec.volumeClaimTemplates[].status.conditions merge(type)',
  ],
  Job: [
    ...TEMPLATE('spec.template'),
    'status.conditions merge(type) listType(atomic)',
    'status.uncountedTerminatedPods.failed listType(set)',
    'status.uncountedTerminatedPods.succeeded listType(set)',
  ],
  CronJob: [
    ...OBJECT_META('spec.jobTemplate.metadata'),
    ...TEMPLATE('spec.jobTemplate.spec.template'),
    'status.active listType(atomic)',
  ],
  NetworkPolicy: ['spec.podSelector atomic', ...PEERS('egress', 'to'), ...PEERS('ingress', 'from')],
  PodDisruptionBudget: ['spec.selector atomic replace', CONDITIONS],
  RuntimeClass: ['scheduling.nodeSelector atomic'],
  CSIDriver: ['spec.volumeLifecycleModes listType(set)'],
  CSINode: ['spec.drivers merge(name)'],
  VolumeAttachment: PV_SPEC('spec.source.inlineVolumeSpec'),
  EndpointSlice: ['endpoints[].addresses listType(set)'],
  CertificateSigningRequest: ['status.conditions listType(map) keys(type)'],
  MutatingWebhookConfiguration: WEBHOOKS,
  ValidatingWebhookConfiguration: WEBHOOKS,
  // admissionregistration v1 policies: MatchResources, ParamKind, ParamRef, Variable, NamedRuleWithOperations
  // atomic structs, validations/auditAnnotations/rules atomic lists, conditions a list map (no patchStrategy).
  ValidatingAdmissionPolicy: [
    ...MATCH_RESOURCES('spec.matchConstraints'),
    'spec.auditAnnotations listType(atomic)',
    'spec.matchConditions merge(name)',
    'spec.paramKind atomic',
    'spec.validations listType(atomic)',
    'spec.variables merge(name)',
    'spec.variables[] atomic',
    'status.conditions listType(map) keys(type)',
    'status.typeChecking.expressionWarnings listType(atomic)',
  ],
  ValidatingAdmissionPolicyBinding: [
    ...MATCH_RESOURCES('spec.matchResources'),
    'spec.paramRef atomic',
    'spec.paramRef.selector atomic',
    'spec.validationActions listType(set)',
  ],
  APIService: [CONDITIONS],
  // flowcontrol v1: rules and their parts atomic (+listType=atomic), their strings sets.
  FlowSchema: [
    'spec.rules listType(atomic)',
    ...['subjects', 'resourceRules', 'nonResourceRules'].map((l) => `spec.rules[].${l} listType(atomic)`),
    ...['apiGroups', 'namespaces', 'resources', 'verbs'].map((l) => `spec.rules[].resourceRules[].${l} listType(set)`),
    ...['nonResourceURLs', 'verbs'].map((l) => `spec.rules[].nonResourceRules[].${l} listType(set)`),
    CONDITIONS,
  ],
  PriorityLevelConfiguration: [CONDITIONS],
};

/** The lists both CustomResourceDefinition versions declare alike. */
const CRD_LISTS = [
  'spec.names.categories listType(atomic)',
  'spec.names.shortNames listType(atomic)',
  'spec.versions listType(atomic)',
  'status.acceptedNames.categories listType(atomic)',
  'status.acceptedNames.shortNames listType(atomic)',
  'status.conditions listType(map) keys(type)',
  'status.storedVersions listType(atomic)',
];

/** Facts of a kind at a version whose schema differs from the kind's storage version. */
const EXPECTED_AT: Record<string, string[]> = {
  // autoscaling/v2's lists (v2beta1 has no behavior; v1 has none of them).
  'HorizontalPodAutoscaler autoscaling/v2': [
    'spec.behavior.scaleDown.policies listType(atomic)',
    'spec.behavior.scaleUp.policies listType(atomic)',
    'spec.metrics listType(atomic)',
    CONDITIONS,
    'status.currentMetrics listType(atomic)',
  ],
  // events.k8s.io names core Events' involvedObject `regarding`.
  'Event events.k8s.io/v1': ['regarding atomic', 'related atomic'],
  'Event events.k8s.io/v1beta1': ['regarding atomic', 'related atomic'],
  'Event events.ck.io/v1beta1': ['regarding atomic', 'related atomic'],
  // apiextensions.k8s.io types.go: atomic lists, conditions a map by type (no patch strategy).
  'CustomResourceDefinition apiextensions.k8s.io/v1': [
    'spec.conversion.webhook.conversionReviewVersions listType(atomic)',
    ...CRD_LISTS,
    'spec.versions[].additionalPrinterColumns listType(atomic)',
    'spec.versions[].selectableFields listType(atomic)',
  ],
  'CustomResourceDefinition apiextensions.k8s.io/v1beta1': [
    'spec.additionalPrinterColumns listType(atomic)',
    'spec.conversion.conversionReviewVersions listType(atomic)',
    'spec.selectableFields listType(atomic)',
    ...CRD_LISTS,
    'spec.versions[].additionalPrinterColumns listType(atomic)',
    'spec.versions[].selectableFields listType(atomic)',
  ],
  // policy/v1beta1 budgets have no status conditions.
  'PodDisruptionBudget policy/v1beta1': ['spec.selector atomic replace'],
};

/** Lists upstream 1.10 replaces whole (no patch strategy): they declare nothing. */
const REPLACED = {
  Pod: [
    'spec.tolerations',
    'spec.containers[].envFrom',
    'spec.containers[].args',
    'spec.securityContext.supplementalGroups',
    'status.containerStatuses',
  ],
  Node: ['spec.taints', 'status.images', 'status.volumesAttached'],
  Endpoints: ['subsets', 'subsets[].addresses', 'subsets[].ports'],
  ServiceAccount: ['imagePullSecrets'],
  Namespace: ['spec.finalizers'],
  LimitRange: ['spec.limits'],
} as const;

const rows = RESOURCE_TABLE.map((d) => [`${d.kind} ${apiVersionOf(d)}`, d] as const);

/** The node of `meta` at `path` (`a.b[].c`), or undefined. */
function nodeAt(meta: PatchMeta | undefined, path: string): PatchMeta | undefined {
  for (const part of path.split('.')) {
    const [name, ...lists] = part.split('[]');
    meta = meta?.fields?.[name];
    for (let i = 0; i < lists.length; i++) meta = meta?.items;
  }
  return meta;
}

/** The OpenAPI schema node of `schema` at `path` (`a.b[].c`). */
function openApiAt(schema: Record<string, any>, path: string): Record<string, any> {
  let at = schema;
  for (const part of path.split('.')) {
    const [name, ...lists] = part.split('[]');
    at = at.properties?.[name];
    for (let i = 0; i < lists.length; i++) at = at?.items;
    if (!at) throw new Error(`no OpenAPI schema at ${path}`);
  }
  return at;
}

const docs = new Map<string, Record<string, any>>();
function openApiOf(def: ResourceDefinition): Record<string, any> {
  const key = `${def.group}/${def.version}`;
  if (!docs.has(key)) docs.set(key, openApiDocument(RESOURCE_TABLE, def.group, def.version));
  const schemas = docs.get(key)!.components.schemas as Record<string, any>;
  return Object.values(schemas).find(
    (s) =>
      s['x-kubernetes-group-version-kind']?.[0]?.kind === def.kind &&
      s['x-kubernetes-group-version-kind'][0].group === def.group,
  )!;
}

describe('patch metadata declared in the schema', () => {
  it.each(rows)('%s: the derived facts are upstream tags', (_, def) => {
    const at = `${def.kind} ${apiVersionOf(def)}`;
    const own = EXPECTED_AT[at] ?? EXPECTED[def.kind] ?? [];
    // A kind of TypeMeta alone (extensions' ReplicationControllerDummy) has no metadata.
    const meta = shapeOf(def.schema)?.metadata ? OBJECT_META('metadata') : [];
    expect(facts(def.patchMeta)).toEqual([...meta, ...own].sort());
  });

  it.each(rows)('%s: the row patches with what its schema declares, every path in the schema', (_, def) => {
    expect(def.patchMeta).toEqual(patchMetaOf(def.schema));
    expect(patchMetaProblems(def.schema, def.patchMeta)).toEqual([]);
  });

  it.each(Object.entries(REPLACED).flatMap(([kind, paths]) => paths.map((p) => [kind, p] as const)))(
    '%s %s is replaced whole (no patch strategy upstream)',
    (kind, path) => {
      const def = RESOURCE_TABLE.find((d) => d.kind === kind)!;
      const node = nodeAt(def.patchMeta, path);
      expect(node?.merge).toBeUndefined();
      expect(listInfo(node).type).toBe('atomic');
      expect(openApiAt(openApiOf(def), path)['x-kubernetes-patch-strategy']).toBeUndefined();
    },
  );

  it.each(rows)('%s: OpenAPI publishes the same facts as strategic merge and server-side apply use', (_, def) => {
    const schema = openApiOf(def);
    const ssa = openApiListTypes(def.patchMeta);
    for (const line of facts(def.patchMeta)) {
      const path = line.split(' ')[0];
      const node = nodeAt(def.patchMeta, path.replace(/\[\]$/, ''))!;
      const at = path.endsWith('[]') ? openApiAt(schema, path.slice(0, -2)).items : openApiAt(schema, path);
      const meta = path.endsWith('[]') ? node.items! : node;
      if (meta.merge) {
        expect(at['x-kubernetes-patch-strategy'], path).toBe(meta.retainKeys ? 'merge,retainKeys' : 'merge');
        expect(at['x-kubernetes-patch-merge-key'], path).toBe(meta.merge.key);
      }
      const { type, keys } = listInfo(meta);
      if (at.type === 'array') expect(at['x-kubernetes-list-type'], path).toBe(type);
      if (type === 'map') expect(at['x-kubernetes-list-map-keys'], path).toEqual(keys);
      if (meta.mapType) expect(at['x-kubernetes-map-type'], path).toBe(meta.mapType);
      if (meta.replace) expect(at['x-kubernetes-patch-strategy'], path).toBe('replace');
      for (const [k, v] of Object.entries(ssa[path] ?? {})) expect(at[k], `${path} ${k}`).toEqual(v);
    }
  });

  it('keeps a declaration through describe(), and a shared schema made atomic at one use stays granular at the others', () => {
    const ref = obj({ name: str });
    const schema = reqObj({
      env: mergedList(reqObj({ name: reqStr, ref: atomic(ref) }), { key: 'name' }).describe('env'),
      other: list(reqObj({ ref })),
    });
    expect(patchMetaOf(schema)).toEqual({
      fields: { env: { merge: { key: 'name' }, items: { fields: { ref: { mapType: 'atomic' } } } } },
    });
    expect(patchInfo.get(ref)).toBeUndefined();
  });

  it('derives maps, sets and nested lists', () => {
    const schema = reqObj({
      tags: setList(z.string()),
      labels: atomic(strMap),
      byKey: z.record(z.string(), mergedList(reqObj({ id: reqStr }), { key: 'id' })),
    });
    expect(patchMetaOf(schema)).toEqual({
      fields: { tags: { merge: {} }, labels: { mapType: 'atomic' }, byKey: { items: { merge: { key: 'id' } } } },
    });
  });
});

describe('declarations that do not fit the schema fail', () => {
  const item = reqObj({ name: reqStr, port: z.number() });

  it('a merge key, list-map key or default that is not a field of the items', () => {
    expect(() => mergedList(item, { key: 'id' })).toThrow('merge key id is not a field');
    expect(() => mergedList(item, { key: 'name', keys: ['name', 'protocol'] })).toThrow(
      'merge key protocol is not a field',
    );
    expect(() => mergedList(item, { key: 'name', keys: ['port'] })).toThrow(
      'merge key name is not among the list-map keys port',
    );
    expect(() => mergedList(item, { key: 'name', defaults: { port: 80 } })).toThrow(
      'default for port, which is not a key',
    );
    expect(() => mergedList(z.string(), { key: 'name' })).toThrow('merge key name is not a field');
  });

  it('a fact on the wrong kind of value', () => {
    expect(() => atomic(str)).toThrow('a map type on a string');
    expect(() => atomic(list(item))).toThrow('a map type on a array');
  });

  it('ObjectMeta declares its own lists beside its fields (finalizers as a set, owner references by uid, pending initializers by name)', () => {
    expect(facts(patchMetaOf(strictObjectMeta))).toEqual(OBJECT_META('').map((l) => l.slice(1)));
  });

  it('hand-written metadata whose paths are not in the schema (test fixture)', () => {
    const schema = reqObj({ spec: obj({ ports: list(item), selector: strMap }) });
    const wrong: PatchMeta = {
      fields: {
        spec: {
          fields: {
            ports: { merge: { key: 'containerPort' } },
            selector: { merge: {} },
            portz: { merge: { key: 'name' } },
          },
        },
        status: { mapType: 'atomic' },
      },
    };
    expect(patchMetaProblems(schema, wrong)).toEqual([
      'spec.ports: merge key containerPort is not a field of the items',
      'spec.selector: list facts on a record',
      'spec.portz: no such field',
      'status: no such field',
    ]);
  });
});
