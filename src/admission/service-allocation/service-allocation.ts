/**
 * Cluster IP and node port allocation for Services (upstream pkg/registry/core/service/rest.go,
 * ipallocator, portallocator): an empty clusterIP gets the next free IP, `None` is headless,
 * ExternalName gets none; NodePort and LoadBalancer ports get node ports, and a LoadBalancer with
 * `externalTrafficPolicy: Local` a health check node port. Requested values must be in range
 * and free (422); clusterIPs follows clusterIP (this cluster is single-stack IPv4). Deleting a
 * Service releases them and deletes its Endpoints.
 */
import { invalid } from '../../errors/api-error.js';
import type { FieldError } from '../../api/validation/field-errors.js';
import { ApiError } from '../../errors/api-error.js';
import type { AdmissionAttributes, StoreHooks, Undo } from '../../registry/hooks.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { ObjectStorage } from '../../storage/types.js';
import type { Service } from '../../resources/services/services.schema.js';
import { RangeAllocator } from './range-allocator.js';
import { endpoints } from '../../resources/endpoints/endpoints.resource.js';
import { parseIpRange, parsePortRange } from '../../net/ranges.js';
import {
  initIPFamilyFields,
  normalizeClusterIPs,
  patchAllocatedValues,
} from '../../resources/services/service-ip-fields.js';

type Spec = NonNullable<Service['spec']>;

const specOf = (svc: Service): Spec => svc.spec ?? {};
const usesNodePorts = (s: Spec) => s.type === 'NodePort' || s.type === 'LoadBalancer';
const hasClusterIP = (s: Spec) => s.type !== 'ExternalName' && !!s.clusterIP && s.clusterIP !== 'None';
const needsHealthCheck = (s: Spec) => s.type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local';

/** Every node port a spec holds (ports and health check). */
function nodePortsOf(s: Spec): number[] {
  const ports = usesNodePorts(s) ? (s.ports ?? []).map((p) => p.nodePort).filter((n): n is number => !!n) : [];
  if (needsHealthCheck(s) && s.healthCheckNodePort) ports.push(s.healthCheckNodePort);
  return ports;
}

export function serviceAllocation(
  registry: ResourceRegistry,
  storage: ObjectStorage,
  ipRangeText: string,
  portRangeText: string,
): StoreHooks<Service> {
  const ipRange = parseIpRange(ipRangeText);
  const portRange = parsePortRange(portRangeText);
  const ipAllocator = new RangeAllocator(
    storage,
    'ranges/serviceips',
    ipRange.cidr,
    ipRange.size,
    'serviceIP',
    staticBand(ipRange.size, 16, 256, 16),
  );
  const portAllocator = new RangeAllocator(
    storage,
    'ranges/servicenodeports',
    portRange.text,
    portRange.size,
    'nodePort',
    staticBand(portRange.size, 16, 128, 32),
  );

  /**
   * Allocate what `svc` needs that `old` did not hold; returns how to give it back. A dry run
   * picks and checks the same way but keeps nothing.
   */
  async function allocate(svc: Service, old: Service | null, attrs: AdmissionAttributes): Promise<Undo> {
    const ips = attrs.dryRun ? ipAllocator.dryRun() : ipAllocator;
    const ports = attrs.dryRun ? portAllocator.dryRun() : portAllocator;
    const spec = (svc.spec ??= {});
    const prev = old ? specOf(old) : undefined;
    const name = svc.metadata.name ?? '';
    const fail = (errs: FieldError[]) => invalid('Service', name, errs);
    const taken: (() => Promise<void>)[] = [];
    const undo: Undo = async () => {
      for (const t of taken) await t().catch(() => undefined);
    };
    try {
      if (spec.type === 'ExternalName') {
        if (spec.clusterIP && spec.clusterIP !== 'None')
          throw fail([
            {
              reason: 'FieldValueInvalid',
              field: 'spec.clusterIP',
              message: `Invalid value: "${spec.clusterIP}": must be empty for ExternalName services`,
            },
          ]);
        spec.clusterIP = '';
      } else if (prev && hasClusterIP(prev)) {
        if (spec.clusterIP && spec.clusterIP !== prev.clusterIP)
          throw fail([
            {
              reason: 'FieldValueInvalid',
              field: 'spec.clusterIP',
              message: `Invalid value: "${spec.clusterIP}": field is immutable`,
            },
          ]);
        spec.clusterIP = prev.clusterIP;
        if (!spec.clusterIPs?.length) spec.clusterIPs = [prev.clusterIP!];
      } else if (spec.clusterIP !== 'None') {
        if (spec.clusterIP) {
          const offset = ipRange.offsetOf(spec.clusterIP);
          if (offset === null)
            throw fail([
              {
                reason: 'FieldValueInvalid',
                field: 'spec.clusterIP',
                message: `Invalid value: "${spec.clusterIP}": provided IP is not in the valid range. The range of valid IPs is ${ipRange.cidr}`,
              },
            ]);
          if (!(await ips.allocate(offset)))
            throw fail([
              {
                reason: 'FieldValueInvalid',
                field: 'spec.clusterIP',
                message: `Invalid value: "${spec.clusterIP}": provided IP is already allocated`,
              },
            ]);
          taken.push(() => ips.release(offset));
        } else {
          const offset = await ips.allocateNext();
          taken.push(() => ips.release(offset));
          spec.clusterIP = ipRange.ipAt(offset);
        }
        // Upstream allocClusterIPs: clusterIPs[0] is the primary clusterIP.
        spec.clusterIPs = [spec.clusterIP, ...(spec.clusterIPs ?? []).slice(1)];
      }
      const held = new Set(prev ? nodePortsOf(prev) : []);
      const takePort = async (field: string, wanted: number | null | undefined): Promise<number> => {
        if (wanted && held.has(wanted)) return wanted;
        if (wanted) {
          const offset = wanted - portRange.base;
          if (offset < 0 || offset >= portRange.size)
            throw fail([
              {
                reason: 'FieldValueInvalid',
                field,
                message: `Invalid value: ${wanted}: provided port is not in the valid range. The range of valid ports is ${portRange.text}`,
              },
            ]);
          if (!(await ports.allocate(offset)))
            throw fail([
              {
                reason: 'FieldValueInvalid',
                field,
                message: `Invalid value: ${wanted}: provided port is already allocated`,
              },
            ]);
          taken.push(() => ports.release(offset));
          return wanted;
        }
        const offset = await ports.allocateNext();
        taken.push(() => ports.release(offset));
        return portRange.base + offset;
      };
      // Explicitly requested (or kept) node ports first, so a random pick cannot take them.
      const wants: { field: string; wanted: number | null | undefined; set: (n: number) => void }[] = [];
      if (usesNodePorts(spec)) {
        for (const [i, p] of (spec.ports ?? []).entries()) {
          // An unchanged port keeps the node port it had (upstream reuses by port and protocol).
          const before = prev?.ports?.find((q) => q.port === p.port && (q.protocol ?? 'TCP') === (p.protocol ?? 'TCP'));
          const wanted = p.nodePort || (usesNodePorts(prev ?? {}) ? before?.nodePort : undefined);
          wants.push({ field: `spec.ports[${i}].nodePort`, wanted, set: (n) => (p.nodePort = n) });
        }
      } else {
        const bad = (spec.ports ?? []).findIndex((p) => p.nodePort);
        if (bad >= 0)
          throw fail([
            {
              reason: 'FieldValueForbidden',
              field: `spec.ports[${bad}].nodePort`,
              message: `Forbidden: may not be used when \`type\` is '${spec.type ?? 'ClusterIP'}'`,
            },
          ]);
      }
      if (needsHealthCheck(spec)) {
        wants.push({
          field: 'spec.healthCheckNodePort',
          wanted: spec.healthCheckNodePort || prev?.healthCheckNodePort,
          set: (n) => (spec.healthCheckNodePort = n),
        });
      } else delete spec.healthCheckNodePort;
      for (const w of wants) if (w.wanted) w.set(await takePort(w.field, w.wanted));
      for (const w of wants) if (!w.wanted) w.set(await takePort(w.field, undefined));
      return undo;
    } catch (err) {
      await undo();
      throw err;
    }
  }

  /** Give back what `old` held and `svc` (null when deleted) no longer does. */
  async function releaseUnused(old: Service, svc: Service | null): Promise<void> {
    const prev = specOf(old);
    const next = svc ? specOf(svc) : {};
    if (hasClusterIP(prev) && (!svc || !hasClusterIP(next))) {
      const offset = ipRange.offsetOf(prev.clusterIP!);
      if (offset !== null) await ipAllocator.release(offset);
    }
    const keep = new Set(nodePortsOf(next));
    for (const port of nodePortsOf(prev)) if (!keep.has(port)) await portAllocator.release(port - portRange.base);
  }

  /**
   * What upstream's service REST does before validation (beginCreate, beginUpdate): an update
   * keeps allocated values it omits (patchAllocatedValues), clusterIP and clusterIPs are kept in
   * step (NormalizeClusterIPs) and the IP family fields are inferred for this single-stack
   * cluster (initIPFamilyFields; RequireDualStack is 422). Status writes keep the stored spec.
   */
  async function prepareFamilies(svc: Service, old: Service | null, attrs: AdmissionAttributes): Promise<void> {
    if (attrs.subresource) return;
    if (old) patchAllocatedValues(svc, old);
    normalizeClusterIPs(svc, old);
    const errs = initIPFamilyFields(svc, old, 'IPv4');
    if (errs.length) throw invalid('Service', svc.metadata.name ?? '', errs);
  }

  return {
    mutate: prepareFamilies,
    beforeCreate: (svc, attrs) => allocate(svc, null, attrs),
    beforeUpdate: (svc, old, attrs) => allocate(svc, old, attrs),
    afterUpdate: (svc, old) => releaseUnused(old, svc),
    async afterDelete(svc) {
      await releaseUnused(svc, null);
      try {
        await registry.of(endpoints).remove(svc.metadata.namespace ?? '', svc.metadata.name ?? '');
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
    },
  };
}

/**
 * The size of the low band kept for requested items: size/step clamped to [min, max], none for
 * ranges smaller than `min` (upstream calculateRangeOffset: IPs 16/256/16, node ports 16/128/32).
 */
function staticBand(size: number, min: number, max: number, step: number): number {
  if (size < min) return 0;
  return Math.min(max, Math.max(min, Math.floor(size / step)));
}
