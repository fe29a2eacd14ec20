/**
 * Service rules of upstream 1.33: pkg/apis/core/validation (ValidateService, validateServicePort,
 * validateClientIPAffinityConfig, validateServiceExternalTrafficPolicy,
 * validateServiceInternalTrafficFieldsValue, validateServiceTrafficDistribution,
 * ValidateServiceUpdate, ValidateLoadBalancerStatus); the dual-stack rules are in
 * service-cluster-ips.ts. Errors come in upstream's order, with its field paths (including its
 * `spec.LoadBalancerSourceRanges` and bare `allocateLoadBalancerNodePorts`) and wording.
 */
import type { FieldError } from '../../api/validation/field-errors.js';
import { duplicate, forbidden, invalidValue, notSupported, required } from '../../api/validation/field-errors.js';
import {
  isCIDR,
  isValidIP,
  isValidPortNum,
  parseIP,
  validateNonSpecialIP,
  validatePortNumOrName,
} from '../../api/validation/network.js';
import {
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabelValue,
  validateQualifiedName,
} from '../../api/names.js';
import type { Service } from './services.schema.js';
import {
  isHeadless,
  VALID_IP_MSG,
  validateLoadBalancerClassField,
  validateServiceClusterIPsRelatedFields,
  validateUpgradeDowngradeClusterIPs,
  validateUpgradeDowngradeIPFamilies,
} from './service-cluster-ips.js';
import { externallyAccessible, needsHealthCheck } from './service-ip-fields.js';

type Spec = NonNullable<Service['spec']>;
type Port = NonNullable<Spec['ports']>[number];

const MAX_AFFINITY_SECONDS = 86400;
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const AFFINITIES = ['ClientIP', 'None'];
const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const IP_MODES = ['Proxy', 'VIP'];
const SOURCE_RANGES_ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';
const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';
const TOPOLOGY_HINTS = 'service.kubernetes.io/topology-aware-hints';
const CIDR_MSG = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

const specOf = (svc: Service): Spec => svc.spec ?? {};
const isSet = <V>(v: V | null | undefined): v is V => v !== undefined && v !== null;

/** Upstream validateServicePort. */
function validateServicePort(p: Port, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = p.name ?? '';
  if (requireName && !name) errs.push(required(`${path}.name`));
  else if (name) {
    errs.push(...validateDns1123Label(name).map((m) => invalidValue(`${path}.name`, name, m)));
    if (names.has(name)) errs.push(duplicate(`${path}.name`, name));
    else names.add(name);
  }
  for (const m of isValidPortNum(p.port ?? 0)) errs.push(invalidValue(`${path}.port`, p.port ?? 0, m));
  if (!p.protocol) errs.push(required(`${path}.protocol`));
  else if (!PROTOCOLS.includes(p.protocol)) errs.push(notSupported(`${path}.protocol`, p.protocol, PROTOCOLS));
  errs.push(...validatePortNumOrName(p.targetPort ?? 0, `${path}.targetPort`));
  if (isSet(p.appProtocol))
    errs.push(
      ...validateQualifiedName(p.appProtocol).map((m) => invalidValue(`${path}.appProtocol`, p.appProtocol, m)),
    );
  return errs;
}

/** Upstream validateClientIPAffinityConfig. */
function validateClientIPAffinityConfig(config: Spec['sessionAffinityConfig'], path: string): FieldError[] {
  const when = 'when session affinity type is ClientIP';
  if (!config) return [required(path, when)];
  if (!config.clientIP) return [required(`${path}.clientIP`, when)];
  const timeout = config.clientIP.timeoutSeconds;
  if (!isSet(timeout)) return [required(`${path}.clientIP.timeoutSeconds`, when)];
  if (timeout <= 0 || timeout > MAX_AFFINITY_SECONDS) {
    return [
      invalidValue(
        `${path}.clientIP.timeoutSeconds`,
        timeout,
        `must be greater than 0 and less than ${MAX_AFFINITY_SECONDS}`,
      ),
    ];
  }
  return [];
}

/** The type-specific rules at the head of upstream ValidateService. */
function validateTypeRules(svc: Service, spec: Spec): FieldError[] {
  const errs: FieldError[] = [];
  const headless = isHeadless(svc);
  switch (spec.type) {
    case 'LoadBalancer':
    case 'NodePort':
      if (headless)
        errs.push(invalidValue('spec.clusterIPs[0]', 'None', `may not be set to 'None' for ${spec.type} services`));
      break;
    case 'ExternalName': {
      const never = 'may not be set for ExternalName services';
      if ((spec.clusterIPs ?? []).length > 0) errs.push(forbidden('spec.clusterIPs', never));
      if ((spec.ipFamilies ?? []).length > 0) errs.push(forbidden('spec.ipFamilies', never));
      if (isSet(spec.ipFamilyPolicy)) errs.push(forbidden('spec.ipFamilyPolicy', never));
      // A CNAME may end with a dot (fully qualified).
      const cname = (spec.externalName ?? '').replace(/\.$/, '');
      if (cname) errs.push(...validateDns1123Subdomain(cname).map((m) => invalidValue('spec.externalName', cname, m)));
      else errs.push(required('spec.externalName'));
      break;
    }
  }
  return errs;
}

/** The node port and duplicate port rules of upstream ValidateService. */
function validatePortSet(spec: Spec, ports: Port[]): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.type === 'ClusterIP') {
    for (const [i, p] of ports.entries())
      if (p.nodePort) errs.push(forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
  }
  const nodePorts = new Set<string>();
  for (const [i, p] of ports.entries()) {
    if (!p.nodePort) continue;
    const key = `${p.protocol ?? ''}/${p.nodePort}`;
    if (nodePorts.has(key)) errs.push(duplicate(`spec.ports[${i}].nodePort`, p.nodePort));
    nodePorts.add(key);
  }
  const servicePorts = new Set<string>();
  for (const [i, p] of ports.entries()) {
    const key = `${p.protocol ?? ''}/${p.port ?? 0}`;
    if (servicePorts.has(key)) {
      const goKey = `core.ServicePort{Name:"", Protocol:${JSON.stringify(p.protocol ?? '')}, AppProtocol:(*string)(nil), Port:${p.port ?? 0}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`;
      errs.push({ reason: 'FieldValueDuplicate', field: `spec.ports[${i}]`, message: `Duplicate value: ${goKey}` });
    }
    servicePorts.add(key);
  }
  return errs;
}

/** The source range rules of upstream ValidateService (the field, else its annotation). */
function validateSourceRanges(svc: Service, spec: Spec): FieldError[] {
  const ranges = spec.loadBalancerSourceRanges ?? [];
  const annotations = svc.metadata.annotations ?? {};
  const lbOnly = "may only be used when `type` is 'LoadBalancer'";
  const errs: FieldError[] = [];
  if (ranges.length > 0) {
    const field = 'spec.LoadBalancerSourceRanges';
    if (spec.type !== 'LoadBalancer') errs.push(forbidden(field, lbOnly));
    for (const [i, raw] of ranges.entries()) {
      const value = raw.trim();
      if (!isCIDR(value)) errs.push(invalidValue(`${field}[${i}]`, value, CIDR_MSG));
    }
  } else if (Object.prototype.hasOwnProperty.call(annotations, SOURCE_RANGES_ANNOTATION)) {
    const field = `metadata.annotations[${SOURCE_RANGES_ANNOTATION}]`;
    if (spec.type !== 'LoadBalancer') errs.push(forbidden(field, lbOnly));
    const text = annotations[SOURCE_RANGES_ANNOTATION].trim();
    if (text)
      for (const raw of text.split(',')) {
        const value = raw.trim();
        if (!isCIDR(value)) errs.push(invalidValue(field, value, CIDR_MSG));
      }
  }
  return errs;
}

/** Upstream validateServiceExternalTrafficPolicy and its health check node port rules. */
function validateTrafficPolicies(spec: Spec): FieldError[] {
  const errs: FieldError[] = [];
  const etp = spec.externalTrafficPolicy ?? '';
  if (!externallyAccessible(spec)) {
    if (etp)
      errs.push(invalidValue('spec.externalTrafficPolicy', etp, 'may only be set for externally-accessible services'));
  } else if (!etp) errs.push(required('spec.externalTrafficPolicy'));
  else if (!TRAFFIC_POLICIES.includes(etp))
    errs.push(notSupported('spec.externalTrafficPolicy', etp, TRAFFIC_POLICIES));
  const hc = spec.healthCheckNodePort ?? 0;
  if (!needsHealthCheck(spec)) {
    if (hc)
      errs.push(
        invalidValue(
          'spec.healthCheckNodePort',
          hc,
          "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        ),
      );
  } else if (hc) {
    // Required when 0: unreachable here, the allocation fills it (before validation upstream).
    for (const m of isValidPortNum(hc)) errs.push(invalidValue('spec.healthCheckNodePort', hc, m));
  }
  // validateServiceInternalTrafficFieldsValue
  const itp = spec.internalTrafficPolicy;
  if (!isSet(itp)) {
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP')
      errs.push(required('spec.internalTrafficPolicy'));
  } else if (!TRAFFIC_POLICIES.includes(itp))
    errs.push(notSupported('spec.internalTrafficPolicy', itp, TRAFFIC_POLICIES));
  // validateServiceTrafficDistribution
  const td = spec.trafficDistribution;
  if (isSet(td) && td !== 'PreferClose') errs.push(notSupported('spec.trafficDistribution', td, ['PreferClose']));
  return errs;
}

/** Upstream ValidateService (1.33), without the ObjectMeta rules the store checks for every kind. */
export function validateService(svc: Service): FieldError[] {
  const spec = specOf(svc);
  const ports = spec.ports ?? [];
  const errs: FieldError[] = [];
  const annotations = svc.metadata.annotations ?? {};
  const mode = annotations[TOPOLOGY_MODE];
  if (isSet(mode) && isSet(annotations[TOPOLOGY_HINTS]) && mode !== annotations[TOPOLOGY_HINTS])
    errs.push(
      invalidValue(
        `metadata.annotations[${TOPOLOGY_MODE}]`,
        mode,
        `must match annotations[${TOPOLOGY_HINTS}] when both are specified`,
      ),
    );
  if (ports.length === 0 && !isHeadless(svc) && spec.type !== 'ExternalName') errs.push(required('spec.ports'));
  errs.push(...validateTypeRules(svc, spec));
  const names = new Set<string>();
  for (const [i, p] of ports.entries())
    errs.push(...validateServicePort(p, ports.length > 1, names, `spec.ports[${i}]`));
  if (spec.selector) {
    for (const [k, v] of Object.entries(spec.selector)) {
      errs.push(...validateQualifiedName(k).map((m) => invalidValue('spec.selector', k, m)));
      errs.push(...validateLabelValue(v).map((m) => invalidValue('spec.selector', v, m)));
    }
  }
  if (!spec.sessionAffinity) errs.push(required('spec.sessionAffinity'));
  else if (!AFFINITIES.includes(spec.sessionAffinity))
    errs.push(notSupported('spec.sessionAffinity', spec.sessionAffinity, AFFINITIES));
  if (spec.sessionAffinity === 'ClientIP')
    errs.push(...validateClientIPAffinityConfig(spec.sessionAffinityConfig, 'spec.sessionAffinityConfig'));
  else if (spec.sessionAffinity === 'None' && spec.sessionAffinityConfig) {
    errs.push(forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...validateServiceClusterIPsRelatedFields(svc));
  for (const [i, ip] of (spec.externalIPs ?? []).entries()) {
    const msgs = isValidIP(ip);
    if (msgs.length) errs.push(...msgs.map((m) => invalidValue(`spec.externalIPs[${i}]`, ip, m)));
    else errs.push(...validateNonSpecialIP(ip, `spec.externalIPs[${i}]`));
  }
  if (!spec.type) errs.push(required('spec.type'));
  else if (!TYPES.includes(spec.type)) errs.push(notSupported('spec.type', spec.type, TYPES));
  errs.push(...validatePortSet(spec, ports));
  errs.push(...validateSourceRanges(svc, spec));
  if (isSet(spec.allocateLoadBalancerNodePorts) && spec.type !== 'LoadBalancer')
    errs.push(forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  if (spec.type === 'LoadBalancer' && !isSet(spec.allocateLoadBalancerNodePorts))
    errs.push(required('allocateLoadBalancerNodePorts'));
  errs.push(...validateLoadBalancerClassField(null, svc));
  errs.push(...validateTrafficPolicies(spec));
  return errs;
}

/** Create: upstream ValidateServiceCreate. */
export function validateServiceCreate(svc: Service): FieldError[] {
  return validateService(svc);
}

/** Upstream ValidateLoadBalancerStatus (status.loadBalancer of a status write). */
export function validateLoadBalancerStatus(svc: Service): FieldError[] {
  const errs: FieldError[] = [];
  const ingress = svc.status?.loadBalancer?.ingress ?? [];
  for (const [i, ing] of ingress.entries()) {
    const path = `status.loadBalancer.ingress[${i}]`;
    if (ing.ip && !parseIP(ing.ip)) errs.push(invalidValue(`${path}.ip`, ing.ip, VALID_IP_MSG));
    if (!isSet(ing.ipMode)) {
      if (ing.ip) errs.push(required(`${path}.ipMode`, 'must be specified when `ip` is set'));
    } else if (!ing.ip) errs.push(forbidden(`${path}.ipMode`, 'may not be specified when `ip` is not set'));
    else if (!IP_MODES.includes(ing.ipMode)) errs.push(notSupported(`${path}.ipMode`, ing.ipMode, IP_MODES));
    if (ing.hostname) {
      errs.push(
        ...validateDns1123Subdomain(ing.hostname).map((m) => invalidValue(`${path}.hostname`, ing.hostname, m)),
      );
      if (parseIP(ing.hostname))
        errs.push(invalidValue(`${path}.hostname`, ing.hostname, 'must be a DNS name, not an IP address'));
    }
  }
  return errs;
}

/**
 * Update: upstream ValidateServiceUpdate (primary cluster IP and family fixed, loadBalancerClass
 * fixed on a LoadBalancer, a needed health check node port fixed), then ValidateService; the
 * load balancer status of a status write.
 */
export function validateServiceUpdate(svc: Service, old: Service): FieldError[] {
  const spec = specOf(svc);
  const prev = specOf(old);
  const errs: FieldError[] = [
    ...validateUpgradeDowngradeClusterIPs(old, svc),
    ...validateUpgradeDowngradeIPFamilies(old, svc),
    ...validateLoadBalancerClassField(old, svc),
  ];
  if (
    needsHealthCheck(prev) &&
    needsHealthCheck(spec) &&
    (prev.healthCheckNodePort ?? 0) !== (spec.healthCheckNodePort ?? 0)
  )
    errs.push(forbidden('spec.healthCheckNodePort', 'field is immutable'));
  errs.push(...validateService(svc));
  return errs.length ? errs : validateLoadBalancerStatus(svc);
}
