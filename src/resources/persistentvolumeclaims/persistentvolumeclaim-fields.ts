/**
 * What upstream 1.33's PersistentVolumeClaim strategy does to a claim before validation
 * (pkg/api/persistentvolumeclaim util.go: DropDisabledFields, EnforceDataSourceBackwardsCompatibility,
 * NormalizeDataSources, DropDisabledFieldsFromStatus), with 1.33's default gates:
 * VolumeAttributesClass and CrossNamespaceVolumeDataSource off, AnyVolumeDataSource on.
 */
import type { PersistentVolumeClaim } from './persistentvolumeclaims.schema.js';

type Spec = NonNullable<PersistentVolumeClaim['spec']>;

const present = <T>(v: T): v is NonNullable<T> => v !== undefined && v !== null;

/** DropDisabledFields: volumeAttributesClassName and a namespaced dataSourceRef, unless already in use. */
export function dropDisabledSpecFields(spec: Spec, old: Spec | undefined): void {
  if (!present(old?.volumeAttributesClassName)) delete spec.volumeAttributesClassName;
  if (present(spec.dataSourceRef) && spec.dataSourceRef.namespace && !present(old?.dataSourceRef))
    delete spec.dataSourceRef;
}

/**
 * EnforceDataSourceBackwardsCompatibility: with no data source before and no dataSourceRef, a
 * dataSource other than a claim or a VolumeSnapshot is dropped, as before 1.22.
 */
export function enforceDataSourceBackwardsCompatibility(spec: Spec, old: Spec | undefined): void {
  if (present(old?.dataSource) || present(old?.dataSourceRef) || present(spec.dataSourceRef)) return;
  const ds = spec.dataSource;
  if (!present(ds)) return;
  const group = ds.apiGroup ?? '';
  const ok =
    (ds.kind === 'PersistentVolumeClaim' && group === '') ||
    (ds.kind === 'VolumeSnapshot' && group === 'snapshot.storage.k8s.io');
  if (!ok) delete spec.dataSource;
}

/** NormalizeDataSources (create only): dataSource and dataSourceRef copied to one another. */
export function normalizeDataSources(spec: Spec): void {
  const ds = spec.dataSource;
  const ref = spec.dataSourceRef;
  const copy = (from: { apiGroup?: string | null; kind?: string; name?: string }) => ({
    ...(present(from.apiGroup) ? { apiGroup: from.apiGroup } : {}),
    kind: from.kind ?? '',
    name: from.name ?? '',
  });
  if (present(ds) && !present(ref)) spec.dataSourceRef = copy(ds);
  else if (present(ref) && !present(ds) && !ref.namespace) spec.dataSource = copy(ref);
}

/** DropDisabledFieldsFromStatus: the VolumeAttributesClass status fields, unless already set. */
export function dropDisabledStatusFields(obj: PersistentVolumeClaim, old: PersistentVolumeClaim | undefined): void {
  const status = obj.status;
  if (!status) return;
  if (!present(old?.status?.currentVolumeAttributesClassName)) delete status.currentVolumeAttributesClassName;
  if (!present(old?.status?.modifyVolumeStatus)) delete status.modifyVolumeStatus;
}
