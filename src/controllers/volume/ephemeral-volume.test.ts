/**
 * Ported from upstream pkg/controller/volume/ephemeral/controller_test.go (TestSyncHandler:
 * "no-volumes", "create-with-template", the claim's owner reference) for the claims a pod's
 * ephemeral volumes get.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../resources/pods/pods.schema.js';
import { ephemeralClaimsFor } from './ephemeral-volume.js';

const pod = (volumes: unknown[]) =>
  ({ metadata: { name: 'foo', namespace: 'ns', uid: 'pod-uid' }, spec: { containers: [], volumes } }) as Pod;

describe('ephemeralClaimsFor (TestSyncHandler)', () => {
  it('no-volumes: nothing to create', () => {
    expect(ephemeralClaimsFor(pod([]))).toEqual([]);
    expect(ephemeralClaimsFor(pod([{ name: 'c', configMap: { name: 'x' } }]))).toEqual([]);
  });

  it('create-with-template: <pod>-<volume> owned by the pod, with the template labels, annotations and spec', () => {
    const spec = {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      storageClassName: 'fast',
    };
    const template = { metadata: { labels: { a: 'b' }, annotations: { c: 'd' } }, spec };
    const [claim, ...rest] = ephemeralClaimsFor(
      pod([{ name: 'my-volume', ephemeral: { volumeClaimTemplate: template } }]),
    );
    expect(rest).toEqual([]);
    expect(claim).toEqual({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: 'foo-my-volume',
        namespace: 'ns',
        labels: { a: 'b' },
        annotations: { c: 'd' },
        ownerReferences: [
          { apiVersion: 'v1', kind: 'Pod', name: 'foo', uid: 'pod-uid', controller: true, blockOwnerDeletion: true },
        ],
      },
      spec,
    });
    expect(claim!.spec).not.toBe(spec);
  });
});
