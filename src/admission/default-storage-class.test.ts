/**
 * Ported from upstream plugin/pkg/admission/storage/storageclass/setdefault/admission_test.go
 * (TestAdmission, 1.33 rows) and pkg/volume/util GetDefaultClass's ordering.
 */
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes, StoreHooks } from '../registry/hooks.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { PersistentVolumeClaim } from '../resources/persistentvolumeclaims/persistentvolumeclaims.schema.js';
import { storageClasses } from '../resources/storageclasses/storageclasses.resource.js';
import type { StorageClass } from '../resources/storageclasses/storageclasses.schema.js';
import { installDefaultStorageClass } from './default-storage-class.js';

const cls = (name: string, annotations: Record<string, string>, created = '2026-01-01T00:00:00Z'): StorageClass =>
  ({ metadata: { name, annotations, creationTimestamp: created }, provisioner: 'x' }) as StorageClass;

const defaultClass1 = cls('default1', { 'storageclass.kubernetes.io/is-default-class': 'true' });
const defaultClass2 = cls('default2', { 'storageclass.kubernetes.io/is-default-class': 'true' });
const betaDefault = cls('betaDefault', { 'storageclass.beta.kubernetes.io/is-default-class': 'true' });
const classWithFalseDefault = cls('nondefault2', { 'storageclass.kubernetes.io/is-default-class': 'false' });
const classWithNoDefault = cls('nondefault1', {});
const classWithEmptyDefault = cls('nondefault2', { 'storageclass.kubernetes.io/is-default-class': '' });
const newer = cls('newer', { 'storageclass.kubernetes.io/is-default-class': 'true' }, '2026-02-01T00:00:00Z');

/** Install the plugin over a fake registry holding `classes`; answers its mutate step. */
function plugin(classes: StorageClass[]): StoreHooks<PersistentVolumeClaim> {
  let hooks: StoreHooks<PersistentVolumeClaim> | undefined;
  const registry = {
    of: (def: unknown) =>
      def === storageClasses
        ? { def: storageClasses, list: async () => ({ items: classes }) }
        : { addAdmission: (h: StoreHooks<PersistentVolumeClaim>) => void (hooks = h) },
  } as unknown as ResourceRegistry;
  installDefaultStorageClass(registry);
  return hooks!;
}

const claim = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>) =>
  ({ metadata: { name: 'claim1', namespace: 'ns', annotations }, spec }) as PersistentVolumeClaim;

const attrs = { dryRun: false } as AdmissionAttributes;

async function admit(classes: StorageClass[], pvc: PersistentVolumeClaim, old: PersistentVolumeClaim | null = null) {
  await plugin(classes).mutate!(pvc, old, attrs);
  return pvc.spec?.storageClassName;
}

describe('DefaultStorageClass admission (TestAdmission)', () => {
  it('no default, no modification of PVCs', async () => {
    expect(await admit([classWithNoDefault, classWithFalseDefault, classWithEmptyDefault], claim())).toBeUndefined();
  });
  it('one default, modify PVC with class=nil', async () => {
    expect(await admit([defaultClass1, classWithNoDefault], claim())).toBe('default1');
  });
  it('one default, no modification of PVC with class=""', async () => {
    expect(await admit([defaultClass1], claim({ storageClassName: '' }))).toBe('');
  });
  it('one default, no modification of PVC with class="foo"', async () => {
    expect(await admit([defaultClass1], claim({ storageClassName: 'foo' }))).toBe('foo');
  });
  it('one default, no modification of PVC with the beta class annotation', async () => {
    const pvc = claim({}, { 'volume.beta.kubernetes.io/storage-class': 'foo' });
    expect(await admit([defaultClass1], pvc)).toBeUndefined();
  });
  it('one beta default, modify PVC with class=nil', async () => {
    expect(await admit([betaDefault], claim())).toBe('betaDefault');
  });
  it('two defaults with the same creation time: the smaller name', async () => {
    expect(await admit([defaultClass2, defaultClass1], claim())).toBe('default1');
  });
  it('two defaults: the newest', async () => {
    expect(await admit([defaultClass1, newer, defaultClass2], claim())).toBe('newer');
  });
  it('updates are left alone', async () => {
    expect(await admit([defaultClass1], claim(), claim())).toBeUndefined();
  });
});
