/**
 * extensions/v1beta1 Ingress (1.10's schema) over networking.k8s.io/v1 storage, as upstream's
 * conversions (pkg/apis/extensions/v1beta1 Convert_v1beta1_IngressBackend_To_networking_* and
 * back, SetDefaults_HTTPIngressPath): `backend` <-> `defaultBackend`, serviceName/servicePort
 * <-> service.name/port.{name|number}, a path without pathType is ImplementationSpecific.
 *
 * What 1.10's version lacks (ingressClassName, pathType, resource backends, status ports) is
 * not shown by it; an update through it keeps what the stored object had
 * ({@link keepV1Fields}), so an old client's read-modify-write loses nothing it did not touch.
 */
import type { ApiObject } from '../../api/object.js';
import type { VersionConversion } from '../../registry/types.js';
import type { Ingress, IngressV1beta1 } from './ingresses.schema.js';

type V1Spec = NonNullable<Ingress['spec']>;
type V1Backend = NonNullable<V1Spec['defaultBackend']>;
type V1Rule = NonNullable<V1Spec['rules']>[number];
type V1Path = NonNullable<NonNullable<V1Rule['http']>['paths']>[number];
type V1Status = NonNullable<Ingress['status']>;
type OldSpec = NonNullable<IngressV1beta1['spec']>;
type OldBackend = NonNullable<OldSpec['backend']>;
type OldRule = NonNullable<OldSpec['rules']>[number];

/** Upstream Convert_v1beta1_IngressBackend_To_networking_IngressBackend. */
function backendToV1(b: OldBackend): V1Backend {
  const port = b.servicePort;
  if (!b.serviceName && !port) return {};
  const servicePort = typeof port === 'string' ? { name: port } : port ? { number: port } : {};
  return { service: { name: b.serviceName ?? '', port: servicePort } };
}

/** Upstream Convert_networking_IngressBackend_To_v1beta1_IngressBackend (1.10 has no resource backend). */
function backendFromV1(b: V1Backend): OldBackend {
  const s = b.service;
  if (!s) return { serviceName: '', servicePort: 0 };
  return { serviceName: s.name, servicePort: s.port?.name ? s.port.name : (s.port?.number ?? 0) };
}

/** `rules` with each path's backend (and pathType) converted by `path`. */
function mapPaths<R extends { http?: { paths?: unknown[] | null } | null }>(
  rules: readonly R[] | null | undefined,
  path: (p: never) => unknown,
): unknown {
  if (!rules) return rules;
  return rules.map((r) =>
    r.http?.paths ? { ...r, http: { ...r.http, paths: r.http.paths.map((p) => path(p as never)) } } : r,
  );
}

function toV1(obj: IngressV1beta1): ApiObject {
  const { backend, rules, ...spec } = obj.spec ?? {};
  const out: ApiObject = { ...obj, apiVersion: 'networking.k8s.io/v1' };
  if (obj.spec) {
    const v1: Record<string, unknown> = { ...spec };
    if (backend) v1.defaultBackend = backendToV1(backend);
    if (rules !== undefined)
      v1.rules = mapPaths(
        rules,
        ({ backend: b, ...p }: NonNullable<NonNullable<OldRule['http']>['paths']>[number]) => ({
          ...p,
          pathType: 'ImplementationSpecific',
          backend: backendToV1(b ?? {}),
        }),
      );
    out.spec = v1;
  }
  return out;
}

function fromV1(obj: Ingress): ApiObject {
  const { defaultBackend, rules, ingressClassName: _c, ...spec } = obj.spec ?? {};
  const out: ApiObject = { ...obj, apiVersion: 'extensions/v1beta1' };
  if (obj.spec) {
    const old: Record<string, unknown> = { ...spec };
    if (defaultBackend) old.backend = backendFromV1(defaultBackend);
    if (rules !== undefined)
      old.rules = mapPaths(rules, ({ backend, pathType: _t, ...p }: V1Path) => ({
        ...p,
        backend: backendFromV1(backend ?? {}),
      }));
    out.spec = old;
  }
  const status = obj.status;
  const lb = status?.loadBalancer;
  if (lb?.ingress)
    out.status = { ...status, loadBalancer: { ...lb, ingress: lb.ingress.map(({ ports: _p, ...i }) => i) } };
  return out;
}

export const extensionsIngressConversion: VersionConversion = { toStorage: toV1, fromStorage: fromV1 };

/** Whether a converted backend is empty (1.10 could not show what the stored one was). */
const emptyBackend = (b: V1Backend | null | undefined) => !b?.service && !b?.resource;

/**
 * For an update through extensions/v1beta1 (`ing` converted, `old` as stored): keep the old
 * ingressClassName when none is given, a path's old pathType where the same host has the same
 * path, and an old backend 1.10 could not show (a resource backend).
 */
export function keepV1Fields(ing: Ingress, old: Ingress): void {
  const spec = ing.spec;
  const before = old.spec;
  if (!spec || !before) return;
  if (spec.ingressClassName === undefined && typeof before.ingressClassName === 'string')
    spec.ingressClassName = before.ingressClassName;
  if (emptyBackend(spec.defaultBackend) && before.defaultBackend && spec.defaultBackend)
    spec.defaultBackend = before.defaultBackend;
  for (const rule of spec.rules ?? []) {
    const oldPaths = (before.rules ?? [])
      .filter((r) => (r.host ?? '') === (rule.host ?? ''))
      .flatMap((r) => r.http?.paths ?? []);
    for (const p of rule.http?.paths ?? []) {
      const match = oldPaths.find((o) => (o.path ?? '') === (p.path ?? ''));
      if (!match) continue;
      if (p.pathType === 'ImplementationSpecific' && match.pathType) p.pathType = match.pathType;
      if (emptyBackend(p.backend)) p.backend = match.backend;
    }
  }
}

/** For a status write through extensions/v1beta1: the ports the stored status had per ingress point. */
export function keepStatusPorts(status: V1Status | null | undefined, old: V1Status | null | undefined): unknown {
  const points = status?.loadBalancer?.ingress;
  if (!status || !points) return status;
  const before = old?.loadBalancer?.ingress ?? [];
  const ingress = points.map((p) => {
    const match = before.find((o) => (o.ip ?? '') === (p.ip ?? '') && (o.hostname ?? '') === (p.hostname ?? ''));
    return match?.ports && !p.ports ? { ...p, ports: match.ports } : p;
  });
  return { ...status, loadBalancer: { ...status.loadBalancer, ingress } };
}
