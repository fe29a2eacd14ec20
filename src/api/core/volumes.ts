/**
 * Volume sources: the PersistentVolume blocks and the pod Volume blocks, with the spec's
 * differences (pod volumes reference secrets by name only; azureFile has no secretNamespace
 * there; storageos takes a local reference), and the sources and fields upstream has added up to
 * 1.33 (csi for pods, ephemeral, image, projected service account tokens and cluster trust
 * bundles, cinder and CSI secret references, quobyte tenant, glusterfs endpointsNamespace).
 */
import type { z } from 'zod';
import { strictObjectMeta } from '../meta-schema.js';
import { persistentVolumeClaimSpec } from './pvc-spec.js';
import {
  atomic,
  bool,
  described,
  int,
  labelSelector,
  list,
  localRef,
  obj,
  objectReference,
  quantity,
  reqInt,
  reqObj,
  reqStr,
  str,
  strList,
  strMap,
} from './schema-kit.js';

// SecretReference, LocalObjectReference and ObjectReference are atomic structs (`+structType=atomic`).
const secretRef = atomic(obj({ name: str, namespace: str }));
const localSecretRef = atomic(obj(localRef));

/** Blocks identical in persistent volumes and pod volumes. */
const shared = {
  awsElasticBlockStore: obj({ fsType: str, partition: int, readOnly: bool, volumeID: reqStr }),
  azureDisk: obj({ cachingMode: str, diskName: reqStr, diskURI: reqStr, fsType: str, kind: str, readOnly: bool }),
  fc: obj({ fsType: str, lun: int, readOnly: bool, targetWWNs: strList, wwids: strList }),
  flocker: obj({ datasetName: str, datasetUUID: str }),
  gcePersistentDisk: obj({ fsType: str, partition: int, pdName: reqStr, readOnly: bool }),
  hostPath: obj({ path: reqStr, type: str }),
  nfs: obj({ path: reqStr, readOnly: bool, server: reqStr }),
  photonPersistentDisk: obj({ fsType: str, pdID: reqStr }),
  portworxVolume: obj({ fsType: str, readOnly: bool, volumeID: reqStr }),
  vsphereVolume: obj({ fsType: str, storagePolicyID: str, storagePolicyName: str, volumePath: reqStr }),
};

const cinder = (ref: z.ZodType) => obj({ fsType: str, readOnly: bool, secretRef: ref, volumeID: reqStr });
const flexVolume = (ref: z.ZodType) =>
  obj({ driver: reqStr, fsType: str, options: strMap, readOnly: bool, secretRef: ref });
const quobyte = obj({ group: str, readOnly: bool, registry: reqStr, tenant: str, user: str, volume: reqStr });

const iscsi = (ref: z.ZodType) =>
  obj({
    chapAuthDiscovery: bool,
    chapAuthSession: bool,
    fsType: str,
    initiatorName: str,
    iqn: reqStr,
    iscsiInterface: str,
    lun: reqInt,
    portals: strList,
    readOnly: bool,
    secretRef: ref,
    targetPortal: reqStr,
  });

const cephfs = (ref: z.ZodType) =>
  obj({ monitors: strList, path: str, readOnly: bool, secretFile: str, secretRef: ref, user: str });
const rbd = (ref: z.ZodType) =>
  obj({
    fsType: str,
    image: reqStr,
    keyring: str,
    monitors: strList,
    pool: str,
    readOnly: bool,
    secretRef: ref,
    user: str,
  });
const scaleIO = (ref: z.ZodType) =>
  obj({
    fsType: str,
    gateway: reqStr,
    protectionDomain: str,
    readOnly: bool,
    secretRef: ref,
    sslEnabled: bool,
    storageMode: str,
    storagePool: str,
    system: reqStr,
    volumeName: str,
  });

/** What each volume-source block is (shared by pod volumes and persistent volumes). */
const SOURCE_DOCS: Record<string, string> = {
  awsElasticBlockStore: 'An AWS EBS disk, attached to the node and mounted.',
  azureDisk: 'An Azure data disk.',
  azureFile: 'An Azure File Service share.',
  cephfs: 'A Ceph filesystem.',
  cinder: 'An OpenStack Cinder volume.',
  configMap: "A ConfigMap's keys as files.",
  csi: 'A volume managed by an external CSI driver.',
  downwardAPI: 'Pod and container fields (labels, annotations, resources) as files.',
  ephemeral: 'A volume provisioned for the pod from a claim template, deleted with the pod.',
  emptyDir: 'An empty directory that lives as long as the pod, on node storage or in memory.',
  fc: 'A Fibre Channel disk.',
  flexVolume: 'A volume from a FlexVolume driver plugin.',
  flocker: 'A Flocker dataset.',
  gcePersistentDisk: 'A GCE persistent disk.',
  gitRepo: 'Deprecated: a directory with a git repository cloned into it.',
  glusterfs: 'A GlusterFS volume.',
  hostPath: "A file or directory of the node's filesystem. Mostly for system agents; not portable.",
  image: 'The content of an OCI image or artifact, read-only (ImageVolume: off in 1.33, dropped).',
  iscsi: 'An iSCSI disk.',
  local: 'A local disk or directory of a node (the volume has node affinity).',
  nfs: 'An NFS export.',
  persistentVolumeClaim: 'The persistent volume bound to a claim in the same namespace.',
  photonPersistentDisk: 'A Photon Controller persistent disk.',
  portworxVolume: 'A Portworx volume.',
  projected: 'Several sources (secrets, config maps, downward API) projected into one directory.',
  quobyte: 'A Quobyte volume.',
  rbd: 'A Rados block device.',
  scaleIO: 'A ScaleIO volume.',
  secret: "A Secret's keys as files.",
  storageos: 'A StorageOS volume.',
  vsphereVolume: 'A vSphere virtual disk.',
};

/** PersistentVolumeSpec's volume-source blocks. */
export const persistentVolumeSources = described(
  {
    ...shared,
    azureFile: obj({ readOnly: bool, secretName: reqStr, secretNamespace: str, shareName: reqStr }),
    cephfs: cephfs(secretRef),
    cinder: cinder(secretRef),
    csi: obj({
      controllerExpandSecretRef: secretRef,
      controllerPublishSecretRef: secretRef,
      driver: reqStr,
      fsType: str,
      nodeExpandSecretRef: secretRef,
      nodePublishSecretRef: secretRef,
      nodeStageSecretRef: secretRef,
      readOnly: bool,
      volumeAttributes: strMap,
      volumeHandle: reqStr,
    }),
    flexVolume: flexVolume(secretRef),
    glusterfs: obj({ endpoints: reqStr, endpointsNamespace: str, path: reqStr, readOnly: bool }),
    iscsi: iscsi(secretRef),
    local: obj({ fsType: str, path: reqStr }),
    quobyte,
    rbd: rbd(secretRef),
    scaleIO: scaleIO(secretRef),
    storageos: obj({
      fsType: str,
      readOnly: bool,
      secretRef: atomic(obj(objectReference)),
      volumeName: str,
      volumeNamespace: str,
    }),
  },
  SOURCE_DOCS,
);

const keyToPath = list(reqObj({ key: reqStr, mode: int, path: reqStr }));
const fieldRef = obj({ apiVersion: str, fieldPath: reqStr });
const resourceFieldRef = obj({ containerName: str, divisor: quantity.nullable().optional(), resource: reqStr });
const downwardItems = list(reqObj({ fieldRef, mode: int, path: reqStr, resourceFieldRef }));

/** A pod Volume: a name and one source block. */
export const volume = reqObj(
  described(
    {
      name: reqStr,
      ...shared,
      azureFile: obj({ readOnly: bool, secretName: reqStr, shareName: reqStr }),
      cephfs: cephfs(localSecretRef),
      cinder: cinder(localSecretRef),
      csi: obj({
        driver: reqStr,
        fsType: str,
        nodePublishSecretRef: localSecretRef,
        readOnly: bool,
        volumeAttributes: strMap,
      }),
      ephemeral: obj({
        volumeClaimTemplate: obj({ metadata: strictObjectMeta, spec: persistentVolumeClaimSpec.unwrap().unwrap() }),
      }),
      flexVolume: flexVolume(localSecretRef),
      glusterfs: obj({ endpoints: reqStr, path: reqStr, readOnly: bool }),
      image: obj({ pullPolicy: str, reference: str }),
      iscsi: iscsi(localSecretRef),
      quobyte,
      rbd: rbd(localSecretRef),
      scaleIO: scaleIO(localSecretRef),
      storageos: obj({ fsType: str, readOnly: bool, secretRef: localSecretRef, volumeName: str, volumeNamespace: str }),
      configMap: obj({ defaultMode: int, items: keyToPath, name: str, optional: bool }),
      downwardAPI: obj({ defaultMode: int, items: downwardItems }),
      emptyDir: obj({ medium: str, sizeLimit: quantity.nullable().optional() }),
      gitRepo: obj({ directory: str, repository: reqStr, revision: str }),
      persistentVolumeClaim: obj({ claimName: reqStr, readOnly: bool }),
      projected: obj({
        defaultMode: int,
        sources: list(
          reqObj({
            clusterTrustBundle: obj({
              labelSelector,
              name: str,
              optional: bool,
              path: reqStr,
              signerName: str,
            }),
            configMap: obj({ items: keyToPath, name: str, optional: bool }),
            downwardAPI: obj({ items: downwardItems }),
            secret: obj({ items: keyToPath, name: str, optional: bool }),
            serviceAccountToken: obj({ audience: str, expirationSeconds: int, path: reqStr }),
          }),
        ),
      }),
      secret: obj({ defaultMode: int, items: keyToPath, optional: bool, secretName: str }),
    },
    { ...SOURCE_DOCS, name: 'Name of the volume, a DNS label unique in the pod; volumeMounts refer to it.' },
  ),
);

export { fieldRef, resourceFieldRef };
