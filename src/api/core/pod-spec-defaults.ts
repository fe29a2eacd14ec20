/**
 * Defaults of PodSpec as upstream 1.10 applies them on decode (pkg/apis/core/v1/defaults.go):
 * for pods, pod templates and replication controller templates. Mutates the spec given.
 */

import type { z } from 'zod';
import type { podSpec } from './pod-spec.js';

/** A PodSpec as its schema describes it (defaults run on objects that passed their schema). */
type PodSpec = z.infer<typeof podSpec>;
type Container = PodSpec['containers'][number];
type Probe = NonNullable<Container['livenessProbe']>;
type Handler = NonNullable<NonNullable<Container['lifecycle']>['postStart']>;
type Volume = NonNullable<PodSpec['volumes']>[number];

/** Set `o[key]` to `value` when it is absent, null or ''. */
function setIfUnset<O, K extends keyof O>(o: O, key: K, value: O[K]): void {
  if (o[key] === undefined || o[key] === null || o[key] === '') o[key] = value;
}

/** imagePullPolicy by tag: Always for `:latest` or no tag (digests excluded), else IfNotPresent. */
export function defaultPullPolicy(image: string | null | undefined): 'Always' | 'IfNotPresent' {
  if (!image) return 'IfNotPresent';
  if (image.includes('@')) return 'IfNotPresent';
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  const tag = lastSegment.includes(':') ? lastSegment.slice(lastSegment.indexOf(':') + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(probe: Probe | null | undefined): void {
  if (!probe) return;
  setIfUnset(probe, 'timeoutSeconds', 1);
  setIfUnset(probe, 'periodSeconds', 10);
  setIfUnset(probe, 'successThreshold', 1);
  setIfUnset(probe, 'failureThreshold', 3);
  defaultHandler(probe);
}

function defaultHandler(handler: Handler | Probe | null | undefined): void {
  if (handler?.httpGet) {
    setIfUnset(handler.httpGet, 'path', '/');
    setIfUnset(handler.httpGet, 'scheme', 'HTTP');
  }
}

function defaultContainer(c: Container): void {
  setIfUnset(c, 'terminationMessagePath', '/dev/termination-log');
  setIfUnset(c, 'terminationMessagePolicy', 'File');
  setIfUnset(c, 'imagePullPolicy', defaultPullPolicy(c.image));
  if (c.resources === undefined || c.resources === null) c.resources = {};
  // Requests default to limits where only limits are given.
  if (c.resources.limits) c.resources.requests = { ...c.resources.limits, ...(c.resources.requests ?? {}) };
  for (const p of c.ports ?? []) setIfUnset(p, 'protocol', 'TCP');
  for (const e of c.env ?? []) if (e.valueFrom?.fieldRef) setIfUnset(e.valueFrom.fieldRef, 'apiVersion', 'v1');
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  defaultHandler(c.lifecycle?.postStart);
  defaultHandler(c.lifecycle?.preStop);
}

const DEFAULT_MODE = 420; // 0644

function defaultVolume(v: Volume): void {
  // A volume with no source is an emptyDir (upstream SetDefaults_Volume).
  if (Object.entries(v).every(([k, val]) => k === 'name' || val === undefined || val === null)) v.emptyDir = {};
  for (const key of ['secret', 'configMap', 'downwardAPI', 'projected'] as const) {
    const source = v[key];
    if (source) setIfUnset(source, 'defaultMode', DEFAULT_MODE);
  }
  for (const item of v.downwardAPI?.items ?? []) if (item.fieldRef) setIfUnset(item.fieldRef, 'apiVersion', 'v1');
  if (v.hostPath) setIfUnset(v.hostPath, 'type', '');
  if (v.iscsi) setIfUnset(v.iscsi, 'iscsiInterface', 'default');
  if (v.rbd) {
    setIfUnset(v.rbd, 'pool', 'rbd');
    setIfUnset(v.rbd, 'user', 'admin');
    setIfUnset(v.rbd, 'keyring', '/etc/ceph/keyring');
  }
  if (v.azureDisk) {
    setIfUnset(v.azureDisk, 'cachingMode', 'ReadWrite');
    setIfUnset(v.azureDisk, 'fsType', 'ext4');
    setIfUnset(v.azureDisk, 'readOnly', false);
    setIfUnset(v.azureDisk, 'kind', 'Shared');
  }
  if (v.scaleIO) {
    setIfUnset(v.scaleIO, 'storageMode', 'ThinProvisioned');
    setIfUnset(v.scaleIO, 'fsType', 'xfs');
  }
}

/** Apply PodSpec defaults in place (a missing or non-object spec is left alone). */
export function defaultPodSpec(spec: PodSpec | null | undefined): void {
  if (!spec) return;
  const s = spec;
  setIfUnset(s, 'dnsPolicy', 'ClusterFirst');
  setIfUnset(s, 'restartPolicy', 'Always');
  setIfUnset(s, 'terminationGracePeriodSeconds', 30);
  setIfUnset(s, 'schedulerName', 'default-scheduler');
  if (s.securityContext === undefined || s.securityContext === null) s.securityContext = {};
  if (s.serviceAccountName && !s.serviceAccount) s.serviceAccount = s.serviceAccountName;
  // With the host's network, container ports are host ports (upstream defaultHostNetworkPorts).
  if (s.hostNetwork === true) {
    for (const c of [...s.containers, ...(s.initContainers ?? [])]) {
      for (const p of c.ports ?? []) if (!p.hostPort) p.hostPort = p.containerPort;
    }
  }
  for (const c of [...s.containers, ...(s.initContainers ?? [])]) defaultContainer(c);
  // Upstream SetDefaults_EphemeralContainer: the container defaults.
  for (const c of s.ephemeralContainers ?? []) defaultContainer(c);
  for (const v of s.volumes ?? []) defaultVolume(v);
}

/** The QoS class of a pod spec (upstream pkg/apis/core/helper/qos). */
export function podQosClass(spec: PodSpec | null | undefined): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const containers = [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const requests = c.resources?.requests ?? {};
    const limits = c.resources?.limits ?? {};
    if (Object.keys(requests).length || Object.keys(limits).length) any = true;
    for (const r of ['cpu', 'memory']) {
      if (limits[r] === undefined || (requests[r] !== undefined && String(requests[r]) !== String(limits[r])))
        guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
