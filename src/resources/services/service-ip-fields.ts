/**
 * What upstream 1.33 does to a Service's allocated fields before validating a write
 * (pkg/registry/core/service/storage/rest.go beginCreate/beginUpdate, strategy.go
 * NormalizeClusterIPs and dropTypeDependentFields, storage/alloc.go initIPFamilyFields and
 * patchAllocatedValues), for a single-stack cluster whose one family is that of
 * `--service-cluster-ip-range`. Each function mutates the new Service; the admission step of
 * service allocation runs them in upstream's order.
 */
import type { FieldError } from '../../api/validation/field-errors.js';
import { invalidValue } from '../../api/validation/field-errors.js';
import { goSlice, invalidGo, isIPv6, validateServiceClusterIPsRelatedFields } from './service-cluster-ips.js';
import type { Service } from './services.schema.js';

type Spec = NonNullable<Service['spec']>;

const same = (a: readonly string[] | null | undefined, b: readonly string[] | null | undefined) =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((v, i) => v === b?.[i]);

/** Upstream needsClusterIP: every type but ExternalName. */
const needsClusterIP = (s: Spec) => s.type !== 'ExternalName';
/** Upstream needsNodePort: NodePort, or a LoadBalancer that allocates node ports. */
const needsNodePort = (s: Spec) =>
  s.type === 'NodePort' || (s.type === 'LoadBalancer' && s.allocateLoadBalancerNodePorts !== false);
/** Upstream NeedsHealthCheck: a LoadBalancer keeping external traffic node-local. */
export const needsHealthCheck = (s: Spec) => s.type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local';
/** Upstream ExternallyAccessible: NodePort, LoadBalancer, or ClusterIP with external IPs. */
export const externallyAccessible = (s: Spec) =>
  s.type === 'LoadBalancer' || s.type === 'NodePort' || (s.type === 'ClusterIP' && (s.externalIPs ?? []).length > 0);

/** Upstream NormalizeClusterIPs: keep clusterIP and clusterIPs in step (old null on create). */
export function normalizeClusterIPs(svc: Service, old: Service | null): void {
  const spec = (svc.spec ??= {});
  if (!old) {
    if (spec.clusterIP && (spec.clusterIPs ?? []).length === 0) spec.clusterIPs = [spec.clusterIP];
    return;
  }
  const prev = old.spec ?? {};
  if ((prev.clusterIPs ?? []).length > 0 && (spec.clusterIPs ?? []).length === 0) {
    if ((prev.clusterIP ?? '') === (spec.clusterIP ?? '')) spec.clusterIPs = prev.clusterIPs;
  }
  if ((prev.clusterIP ?? '') !== (spec.clusterIP ?? '')) {
    if (prev.clusterIP && !spec.clusterIP && same(prev.clusterIPs, spec.clusterIPs)) delete spec.clusterIPs;
    if (spec.clusterIP && same(prev.clusterIPs, spec.clusterIPs)) spec.clusterIPs = [spec.clusterIP];
  }
}

/** Upstream patchAllocatedValues: an update that omits allocated values keeps the old ones. */
export function patchAllocatedValues(svc: Service, old: Service): void {
  const spec = (svc.spec ??= {});
  const prev = old.spec ?? {};
  if (needsClusterIP(prev) && needsClusterIP(spec)) {
    if (!spec.clusterIP) spec.clusterIP = prev.clusterIP;
    if ((spec.clusterIPs ?? []).length === 0 && (prev.clusterIPs ?? []).length > 0) spec.clusterIPs = prev.clusterIPs;
  }
  if (needsNodePort(prev) && needsNodePort(spec)) {
    const used = (s: Spec) => new Set((s.ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => n !== 0));
    const newUsed = used(spec);
    const taken = new Set([...used(prev)].filter((n) => newUsed.has(n)));
    const byName = new Map((prev.ports ?? []).map((p) => [p.name ?? '', p.nodePort ?? 0]));
    for (const p of spec.ports ?? []) {
      if (p.nodePort) continue;
      const before = byName.get(p.name ?? '') ?? 0;
      if (before && !taken.has(before)) p.nodePort = before;
    }
  }
  if (needsHealthCheck(prev) && needsHealthCheck(spec) && !spec.healthCheckNodePort)
    spec.healthCheckNodePort = prev.healthCheckNodePort;
}

/**
 * Upstream initIPFamilyFields for a cluster serving one family (`clusterFamily`): infers
 * ipFamilyPolicy (the old one on update; RequireDualStack for a headless service without a
 * selector; else SingleStack) and ipFamilies (from clusterIPs, else the cluster's family);
 * refuses what the cluster cannot serve. Returns the causes of a 422 (nothing is changed then).
 */
export function initIPFamilyFields(svc: Service, old: Service | null, clusterFamily: 'IPv4' | 'IPv6'): FieldError[] {
  const spec = (svc.spec ??= {});
  if (spec.type === 'ExternalName') return [];
  const prev = old?.spec;
  if (
    prev &&
    same(prev.clusterIPs, spec.clusterIPs) &&
    same(prev.ipFamilies, spec.ipFamilies) &&
    prev.ipFamilyPolicy === 'PreferDualStack' &&
    spec.ipFamilyPolicy === 'PreferDualStack'
  )
    return [];
  const headlessSelectorless = spec.clusterIP === 'None' && Object.keys(spec.selector ?? {}).length === 0;
  if (spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null) {
    if (prev?.ipFamilyPolicy) spec.ipFamilyPolicy = prev.ipFamilyPolicy;
    else spec.ipFamilyPolicy = headlessSelectorless ? 'RequireDualStack' : 'SingleStack';
  }
  const pre = validateServiceClusterIPsRelatedFields(svc);
  if (pre.length) return pre;
  const errs: FieldError[] = [];
  const policy = spec.ipFamilyPolicy;
  if (prev) {
    if (policy === 'SingleStack') {
      if (same(prev.clusterIPs, spec.clusterIPs) && (spec.clusterIPs ?? []).length > 1)
        spec.clusterIPs = spec.clusterIPs!.slice(0, 1);
      if (same(prev.ipFamilies, spec.ipFamilies) && (spec.ipFamilies ?? []).length > 1)
        spec.ipFamilies = spec.ipFamilies!.slice(0, 1);
    } else {
      const reduced = (a?: string[] | null, b?: string[] | null) => (b ?? []).length === 2 && (a ?? []).length === 1;
      if (reduced(spec.clusterIPs, prev.clusterIPs))
        errs.push(
          invalidValue('spec.ipFamilyPolicy', policy, "must be 'SingleStack' to release the secondary cluster IP"),
        );
      if (reduced(spec.ipFamilies, prev.ipFamilies))
        errs.push(
          invalidValue('spec.ipFamilyPolicy', policy, "must be 'SingleStack' to release the secondary IP family"),
        );
    }
  }
  if (policy === 'SingleStack') {
    if ((spec.clusterIPs ?? []).length === 2)
      errs.push(
        invalidValue(
          'spec.ipFamilyPolicy',
          policy,
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
        ),
      );
    if ((spec.ipFamilies ?? []).length === 2)
      errs.push(
        invalidValue(
          'spec.ipFamilyPolicy',
          policy,
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
        ),
      );
  }
  const families = [...(spec.ipFamilies ?? [])];
  for (const [i, ip] of (spec.clusterIPs ?? []).entries()) {
    if (ip === 'None') break;
    const family = isIPv6(ip) ? 'IPv6' : 'IPv4';
    if (i >= families.length) {
      if (family !== clusterFamily)
        errs.push(
          invalidGo(`spec.clusterIPs[${i}]`, goSlice(spec.clusterIPs), `${family} is not configured on this cluster`),
        );
      else families.push(family);
    }
  }
  if (errs.length) return errs;
  spec.ipFamilies = families;
  if (headlessSelectorless) {
    if (families.length === 0) families.push(clusterFamily);
    if (families.length < 2 && policy !== 'SingleStack') families.push(families[0] === 'IPv4' ? 'IPv6' : 'IPv4');
    spec.ipFamilies = families;
    return [];
  }
  if (policy === 'RequireDualStack')
    errs.push(invalidValue('spec.ipFamilyPolicy', policy, 'this cluster is not configured for dual-stack services'));
  for (const [i, family] of families.entries())
    if (family !== clusterFamily)
      errs.push(invalidValue(`spec.ipFamilies[${i}]`, family, 'not configured on this cluster'));
  if (errs.length) return errs;
  if (families.length === 0) spec.ipFamilies = [clusterFamily];
  return [];
}

/**
 * Upstream dropTypeDependentFields (updates only): a type that no longer needs a value drops
 * it when the user left it as it was (cluster IPs and families, node ports, the health check
 * port, allocateLoadBalancerNodePorts, loadBalancerClass, externalTrafficPolicy), and a type
 * other than LoadBalancer drops the load balancer status.
 */
export function dropTypeDependentFields(svc: Service, old: Service): void {
  const spec = (svc.spec ??= {});
  const prev = old.spec ?? {};
  if (needsClusterIP(prev) && !needsClusterIP(spec)) {
    if ((prev.clusterIP ?? '') === (spec.clusterIP ?? '') && same(prev.clusterIPs, spec.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (same(prev.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies;
    if ((prev.ipFamilyPolicy ?? null) === (spec.ipFamilyPolicy ?? null)) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(prev) && !needsNodePort(spec)) {
    const ports = (s: Spec) => (s.ports ?? []).map((p) => p.nodePort ?? 0);
    if (same(ports(prev).map(String), ports(spec).map(String))) for (const p of spec.ports ?? []) delete p.nodePort;
  }
  if (needsHealthCheck(prev) && !needsHealthCheck(spec)) {
    if ((prev.healthCheckNodePort ?? 0) === (spec.healthCheckNodePort ?? 0)) delete spec.healthCheckNodePort;
  }
  if (prev.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    const a = prev.allocateLoadBalancerNodePorts;
    const b = spec.allocateLoadBalancerNodePorts;
    if (a !== undefined && a !== null && a === b) delete spec.allocateLoadBalancerNodePorts;
    if (prev.loadBalancerClass && prev.loadBalancerClass === spec.loadBalancerClass) delete spec.loadBalancerClass;
  }
  if (externallyAccessible(prev) && !externallyAccessible(spec)) {
    if ((prev.externalTrafficPolicy ?? '') === (spec.externalTrafficPolicy ?? '')) delete spec.externalTrafficPolicy;
  }
  if (spec.type !== 'LoadBalancer' && svc.status) svc.status = { ...svc.status, loadBalancer: {} };
}
