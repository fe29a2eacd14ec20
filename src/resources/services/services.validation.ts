/**
 * Service rules of upstream 1.10: pkg/apis/core/validation (ValidateService, validateServicePort,
 * validateClientIPAffinityConfig, validateServiceExternalTrafficFieldsValue,
 * ValidateServiceExternalTrafficFieldsCombination, ValidateServiceUpdate,
 * ValidateLoadBalancerStatus) and the checks pkg/registry/core/service/rest.go makes around
 * allocation (healthCheckNodePortUpdate, externalTrafficPolicyUpdate). Errors come in upstream's
 * order, with its field paths (including its `spec.LoadBalancerSourceRanges`) and wording.
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

type Spec = NonNullable<Service['spec']>;
type Port = NonNullable<Spec['ports']>[number];

const KUBELET_PORT = 10250;
const MAX_AFFINITY_SECONDS = 86400;
const PROTOCOLS = ['TCP', 'UDP'];
const AFFINITIES = ['ClientIP', 'None'];
const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SOURCE_RANGES_ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';

const specOf = (svc: Service): Spec => svc.spec ?? {};

/** An Invalid cause whose value is printed as Go's %#v prints a struct (not quoted). */
function invalidGo(field: string, goValue: string, detail: string): FieldError {
  return { reason: 'FieldValueInvalid', field, message: `Invalid value: ${goValue}: ${detail}` };
}

/** A ServicePort as Go's %#v prints upstream's internal struct. */
function goServicePort(p: Port): string {
  const tp = p.targetPort ?? 0;
  const target =
    typeof tp === 'string'
      ? `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(tp)}}`
      : `intstr.IntOrString{Type:0, IntVal:${tp}, StrVal:""}`;
  return `core.ServicePort{Name:${JSON.stringify(p.name ?? '')}, Protocol:${JSON.stringify(p.protocol ?? '')}, Port:${p.port ?? 0}, TargetPort:${target}, NodePort:${p.nodePort ?? 0}}`;
}

/** Upstream NeedsHealthCheck: a LoadBalancer keeping traffic node-local. */
export function needsHealthCheck(spec: Spec): boolean {
  return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}

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
  return errs;
}

/** Upstream validateClientIPAffinityConfig. */
function validateClientIPAffinityConfig(config: Spec['sessionAffinityConfig'], path: string): FieldError[] {
  const when = 'when session affinity type is ClientIP';
  if (!config) return [required(path, when)];
  if (!config.clientIP) return [required(`${path}.clientIP`, when)];
  const timeout = config.clientIP.timeoutSeconds;
  if (timeout === undefined || timeout === null) return [required(`${path}.clientIP.timeoutSeconds`, when)];
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
function validateTypeRules(spec: Spec, ports: Port[]): FieldError[] {
  const errs: FieldError[] = [];
  const clusterIP = spec.clusterIP ?? '';
  switch (spec.type) {
    case 'LoadBalancer':
      for (const [i, p] of ports.entries()) {
        if (p.port === KUBELET_PORT)
          errs.push(
            invalidValue(
              `spec.ports[${i}]`,
              p.port,
              `may not expose port ${KUBELET_PORT} externally since it is used by kubelet`,
            ),
          );
      }
      if (clusterIP === 'None')
        errs.push(invalidValue('spec.clusterIP', clusterIP, "may not be set to 'None' for LoadBalancer services"));
      break;
    case 'NodePort':
      if (clusterIP === 'None')
        errs.push(invalidValue('spec.clusterIP', clusterIP, "may not be set to 'None' for NodePort services"));
      break;
    case 'ExternalName':
      if (clusterIP !== '') errs.push(forbidden('spec.clusterIP', 'must be empty for ExternalName services'));
      if (spec.externalName)
        errs.push(
          ...validateDns1123Subdomain(spec.externalName).map((m) =>
            invalidValue('spec.externalName', spec.externalName, m),
          ),
        );
      else errs.push(required('spec.externalName'));
      break;
  }
  return errs;
}

/** The LoadBalancer protocol, node port and duplicate port rules of upstream ValidateService. */
function validatePortSet(spec: Spec, ports: Port[]): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.type === 'LoadBalancer') {
    const seen = new Set<string>();
    for (const [i, p] of ports.entries()) {
      if (!PROTOCOLS.includes(p.protocol ?? '')) {
        errs.push(
          invalidValue(
            `spec.ports[${i}].protocol`,
            p.protocol ?? '',
            'cannot create an external load balancer with non-TCP/UDP ports',
          ),
        );
      } else seen.add(p.protocol!);
    }
    if (seen.size > 1)
      errs.push(
        invalidGo(
          'spec.ports',
          `[]core.ServicePort{${ports.map(goServicePort).join(', ')}}`,
          'cannot create an external load balancer with mix protocols',
        ),
      );
  }
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
      const goKey = goServicePort({ protocol: p.protocol, port: p.port, targetPort: 0 });
      errs.push({ reason: 'FieldValueDuplicate', field: `spec.ports[${i}]`, message: `Duplicate value: ${goKey}` });
    }
    servicePorts.add(key);
  }
  return errs;
}

/** The source range rules of upstream ValidateService (field, else its annotation). */
function validateSourceRanges(svc: Service, spec: Spec): FieldError[] {
  const ranges = spec.loadBalancerSourceRanges ?? [];
  const annotations = svc.metadata.annotations ?? {};
  const annotated = Object.prototype.hasOwnProperty.call(annotations, SOURCE_RANGES_ANNOTATION);
  if (ranges.length === 0 && !annotated) return [];
  const errs: FieldError[] = [];
  const fromField = ranges.length > 0;
  const field = fromField ? 'spec.LoadBalancerSourceRanges' : `metadata.annotations[${SOURCE_RANGES_ANNOTATION}]`;
  const value = fromField ? `[${ranges.join(' ')}]` : annotations[SOURCE_RANGES_ANNOTATION];
  if (spec.type !== 'LoadBalancer') errs.push(forbidden(field, "may only be used when `type` is 'LoadBalancer'"));
  const specs = fromField ? ranges : (value.trim() || '0.0.0.0/0').split(',');
  if (!specs.every((s) => isCIDR(s.trim())))
    errs.push(invalidValue(field, value, 'must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 '));
  return errs;
}

/** Upstream ValidateService (1.10), without the ObjectMeta rules the store checks for every kind. */
export function validateService(svc: Service): FieldError[] {
  const spec = specOf(svc);
  const ports = spec.ports ?? [];
  const headless = spec.clusterIP === 'None';
  const errs: FieldError[] = [];
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName') errs.push(required('spec.ports'));
  errs.push(...validateTypeRules(spec, ports));
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
  if (spec.clusterIP && spec.clusterIP !== 'None' && !parseIP(spec.clusterIP)) {
    errs.push(invalidValue('spec.clusterIP', spec.clusterIP, "must be empty, 'None', or a valid IP address"));
  }
  for (const [i, ip] of (spec.externalIPs ?? []).entries()) {
    const msgs = isValidIP(ip);
    if (msgs.length) errs.push(...msgs.map((m) => invalidValue(`spec.externalIPs[${i}]`, ip, m)));
    else errs.push(...validateNonSpecialIP(ip, `spec.externalIPs[${i}]`));
  }
  if (!spec.type) errs.push(required('spec.type'));
  else if (!TYPES.includes(spec.type)) errs.push(notSupported('spec.type', spec.type, TYPES));
  errs.push(...validatePortSet(spec, ports));
  errs.push(...validateSourceRanges(svc, spec));
  // validateServiceExternalTrafficFieldsValue
  const etp = spec.externalTrafficPolicy;
  if (etp && etp !== 'Cluster' && etp !== 'Local')
    errs.push(invalidValue('spec.externalTrafficPolicy', etp, 'ExternalTrafficPolicy must be empty, Cluster or Local'));
  if ((spec.healthCheckNodePort ?? 0) < 0)
    errs.push(
      invalidValue('spec.healthCheckNodePort', spec.healthCheckNodePort, 'HealthCheckNodePort must be not less than 0'),
    );
  return errs;
}

/** Upstream ValidateServiceExternalTrafficFieldsCombination (checked by rest.go after validation). */
export function validateServiceExternalTrafficFieldsCombination(svc: Service): FieldError[] {
  const spec = specOf(svc);
  const errs: FieldError[] = [];
  if (spec.type !== 'LoadBalancer' && spec.type !== 'NodePort' && spec.externalTrafficPolicy) {
    errs.push(
      invalidValue(
        'spec.externalTrafficPolicy',
        spec.externalTrafficPolicy,
        'ExternalTrafficPolicy can only be set on NodePort and LoadBalancer service',
      ),
    );
  }
  if (!needsHealthCheck(spec) && spec.healthCheckNodePort) {
    errs.push(
      invalidValue(
        'spec.healthCheckNodePort',
        spec.healthCheckNodePort,
        'HealthCheckNodePort can only be set on LoadBalancer service with ExternalTrafficPolicy=Local',
      ),
    );
  }
  return errs;
}

/** Create: upstream svcStrategy.Validate, then rest.go's combination check when that passed. */
export function validateServiceCreate(svc: Service): FieldError[] {
  const errs = validateService(svc);
  return errs.length ? errs : validateServiceExternalTrafficFieldsCombination(svc);
}

/**
 * What rest.go Update changes before its checks (externalTrafficPolicyUpdate and the
 * health-check transition that clears the port): a type that no longer uses node ports drops
 * its traffic policy, and a service no longer needing a health check drops its port.
 */
export function prepareServiceUpdate(svc: Service, old: Service): void {
  const spec = specOf(svc);
  const prev = specOf(old);
  const external = (s: Spec) => s.type === 'NodePort' || s.type === 'LoadBalancer';
  if (needsHealthCheck(prev) && !needsHealthCheck(spec)) delete spec.healthCheckNodePort;
  if (external(prev) && !external(spec)) delete spec.externalTrafficPolicy;
}

/** Upstream ValidateLoadBalancerStatus (status.loadBalancer of a status write). */
export function validateLoadBalancerStatus(svc: Service): FieldError[] {
  const errs: FieldError[] = [];
  const ingress = svc.status?.loadBalancer?.ingress ?? [];
  for (const [i, ing] of ingress.entries()) {
    const path = `status.loadBalancer.ingress[${i}]`;
    if (ing.ip && !parseIP(ing.ip)) errs.push(invalidValue(`${path}.ip`, ing.ip, 'must be a valid IP address'));
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
 * Update: upstream ValidateServiceUpdate (cluster IP immutable while neither type is
 * ExternalName and one was set), then rest.go's refusal to change a needed health check
 * node port and its combination check; the load balancer status of a status write.
 */
export function validateServiceUpdate(svc: Service, old: Service): FieldError[] {
  const spec = specOf(svc);
  const prev = specOf(old);
  const errs: FieldError[] = [];
  if (spec.type !== 'ExternalName' && prev.type !== 'ExternalName' && prev.clusterIP) {
    if ((spec.clusterIP ?? '') !== prev.clusterIP)
      errs.push(invalidValue('spec.clusterIP', spec.clusterIP ?? '', 'field is immutable'));
  }
  errs.push(...validateService(svc));
  if (errs.length) return errs;
  if (
    needsHealthCheck(prev) &&
    needsHealthCheck(spec) &&
    (prev.healthCheckNodePort ?? 0) !== (spec.healthCheckNodePort ?? 0)
  ) {
    return [
      invalidValue(
        'spec.healthCheckNodePort',
        spec.healthCheckNodePort ?? 0,
        'cannot change healthCheckNodePort on loadBalancer service with externalTraffic=Local during update',
      ),
    ];
  }
  const combination = validateServiceExternalTrafficFieldsCombination(svc);
  return combination.length ? combination : validateLoadBalancerStatus(svc);
}
