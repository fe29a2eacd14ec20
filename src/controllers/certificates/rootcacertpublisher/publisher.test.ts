/**
 * Upstream 1.33 pkg/controller/certificates/rootcacertpublisher/publisher_test.go
 * TestConfigMapCreation: which namespace and ConfigMap events lead to a create or an update of
 * `kube-root-ca.crt`, and which leave it alone.
 */
import { describe, expect, it } from 'vitest';
import { forbidden } from '../../../errors/api-error.js';
import type { ConfigMap } from '../../../resources/configmaps/configmaps.schema.js';
import type { Namespace } from '../../../resources/namespaces/namespaces.schema.js';
import {
  configMapKey,
  DESCRIPTION,
  DESCRIPTION_ANNOTATION,
  namespaceKey,
  ROOT_CA_CONFIGMAP,
  syncNamespace,
  type PublisherClient,
} from './publisher.js';

const ROOT_CA = 'fake-root-ca';
const cm = (name: string, data: Record<string, string>, annotations?: Record<string, string>): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', resourceVersion: '1', ...(annotations ? { annotations } : {}) },
  data,
});
const caConfigMap = () => cm(ROOT_CA_CONFIGMAP, { 'ca.crt': ROOT_CA }, { [DESCRIPTION_ANNOTATION]: DESCRIPTION });
const otherConfigMap = () => cm('other', {});
const ns = (name: string, phase: string): Namespace =>
  ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase } }) as Namespace;

/** ConfigMaps held by a fake cache, and the writes made (upstream's fake clientset actions). */
function fakeClient(
  existing: ConfigMap[],
): PublisherClient & { actions: [verb: string, name: string][]; held: Map<string, ConfigMap> } {
  const held = new Map(existing.map((c) => [`${c.metadata.namespace}/${c.metadata.name}`, c]));
  const actions: [string, string][] = [];
  return {
    actions,
    held,
    get: async (namespace) => held.get(`${namespace}/${ROOT_CA_CONFIGMAP}`),
    create: async (namespace, c) => {
      actions.push(['create', c.metadata.name ?? '']);
      held.set(`${namespace}/${c.metadata.name}`, c);
    },
    update: async (namespace, c) => {
      actions.push(['update', c.metadata.name ?? '']);
      held.set(`${namespace}/${c.metadata.name}`, c);
    },
  };
}

interface Case {
  readonly existing: ConfigMap[];
  readonly addedNamespace?: Namespace;
  readonly updatedNamespace?: Namespace;
  readonly deletedConfigMap?: ConfigMap;
  readonly updatedConfigMap?: ConfigMap;
  readonly expect: [string, string][];
}

const CASES: Record<string, Case> = {
  'create new namespace': {
    existing: [caConfigMap()],
    addedNamespace: ns('new', 'Active'),
    expect: [['create', ROOT_CA_CONFIGMAP]],
  },
  'delete other configmap': {
    existing: [otherConfigMap(), caConfigMap()],
    deletedConfigMap: otherConfigMap(),
    expect: [],
  },
  'delete ca configmap': {
    existing: [otherConfigMap(), caConfigMap()],
    deletedConfigMap: caConfigMap(),
    expect: [['create', ROOT_CA_CONFIGMAP]],
  },
  'update ca configmap with adding field': {
    existing: [caConfigMap()],
    updatedConfigMap: cm(
      ROOT_CA_CONFIGMAP,
      { 'ca.crt': ROOT_CA, test: 'test' },
      { [DESCRIPTION_ANNOTATION]: DESCRIPTION },
    ),
    expect: [['update', ROOT_CA_CONFIGMAP]],
  },
  'update ca configmap with modifying field': {
    existing: [caConfigMap()],
    updatedConfigMap: cm(ROOT_CA_CONFIGMAP, { 'ca.crt': 'abc' }, { [DESCRIPTION_ANNOTATION]: DESCRIPTION }),
    expect: [['update', ROOT_CA_CONFIGMAP]],
  },
  'update with other configmap': {
    existing: [caConfigMap(), otherConfigMap()],
    updatedConfigMap: cm('other', { aa: 'bb' }),
    expect: [],
  },
  'update namespace with terminating state': {
    existing: [caConfigMap()],
    updatedNamespace: ns('default', 'Terminating'),
    expect: [],
  },
  'update ca configmap without the description annotation': {
    existing: [caConfigMap()],
    updatedConfigMap: cm(ROOT_CA_CONFIGMAP, { 'ca.crt': ROOT_CA }),
    expect: [['update', ROOT_CA_CONFIGMAP]],
  },
};

describe('TestConfigMapCreation', () => {
  it.each(Object.entries(CASES))('%s', async (_name, c) => {
    const client = fakeClient(c.existing);
    const keys: (string | undefined)[] = [];
    if (c.addedNamespace) keys.push(namespaceKey('ADDED', c.addedNamespace));
    if (c.updatedNamespace) keys.push(namespaceKey('MODIFIED', c.updatedNamespace));
    // The cache sees the change first, then the handler queues the namespace.
    if (c.deletedConfigMap) {
      client.held.delete(`default/${c.deletedConfigMap.metadata.name}`);
      keys.push(configMapKey(c.deletedConfigMap));
    }
    if (c.updatedConfigMap) {
      client.held.set(`default/${c.updatedConfigMap.metadata.name}`, c.updatedConfigMap);
      keys.push(configMapKey(c.updatedConfigMap));
    }
    for (const key of keys.filter((k): k is string => Boolean(k))) await syncNamespace(key, ROOT_CA, client);
    expect(client.actions).toEqual(c.expect);
  });

  it('writes the CA bundle and the description annotation', async () => {
    const client = fakeClient([]);
    const made: ConfigMap[] = [];
    await syncNamespace('new', ROOT_CA, { ...client, create: async (_ns, c) => void made.push(c) });
    expect(made[0].data).toEqual({ 'ca.crt': ROOT_CA });
    expect(made[0].metadata.annotations).toEqual({ [DESCRIPTION_ANNOTATION]: DESCRIPTION });
  });

  it('does not retry a create in a namespace that is terminating', async () => {
    const client = fakeClient([]);
    const refused = forbidden(
      'configmaps',
      '',
      'unable to create new content in namespace x because it is being terminated',
    );
    await expect(
      syncNamespace('x', ROOT_CA, { ...client, create: async () => Promise.reject(refused) }),
    ).resolves.toBeUndefined();
  });
});
