/**
 * apiextensions.k8s.io/v1beta1 CustomResourceDefinitions over the v1 storage, converted as
 * upstream converts them through the internal version (k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions/v1beta1 zz_generated.conversion.go, field for field but a printer
 * column's `JSONPath`, and pkg/apis/apiextensions/v1 conversion.go, 1.33):
 * - to storage (v1beta1 → internal → v1): no `versions` but a `version` make one served and
 *   stored version; the top-level `validation`, `subresources`, `additionalPrinterColumns` and
 *   `selectableFields` are copied into every version (replacing what a version had); the
 *   webhook's client config and review versions go under `conversion.webhook`;
 *   `preserveUnknownFields` is kept only when true (v1's omitted false);
 * - from storage (v1 → internal → v1beta1, internal.ts toInternal): `version` is the first
 *   version's name; per-version fields every version has alike move to the top level;
 *   `preserveUnknownFields` is always written (false for a definition made through v1).
 * The internal form of a request is kept for its validation ({@link requestedInternal}), since
 * upstream validates the form converted from v1beta1, in which rules only v1beta1 can break
 * (top-level and per-version fields both set, `version` not the first of `versions`) show.
 */
import { deepCopy, type ApiObject } from '../../api/object.js';
import type { VersionConversion } from '../../registry/types.js';
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionVersion,
} from './customresourcedefinitions.schema.js';
import { goEqual, toInternal, type InternalSpec, type InternalValidation, type InternalVersion } from './internal.js';
import { defaultCustomResourceDefinitionV1beta1 } from './v1beta1.defaults.js';
import type {
  CustomResourceColumnDefinitionV1beta1,
  CustomResourceDefinitionV1beta1,
  CustomResourceDefinitionV1beta1Spec,
} from './v1beta1.schema.js';

export const APIEXTENSIONS_V1 = 'apiextensions.k8s.io/v1';
export const APIEXTENSIONS_V1BETA1 = 'apiextensions.k8s.io/v1beta1';

/** `obj` without the keys whose value is undefined (Go's omitted fields). */
function compact<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

const columnToInternal = ({
  JSONPath,
  ...rest
}: CustomResourceColumnDefinitionV1beta1): CustomResourceColumnDefinition => ({ ...rest, jsonPath: JSONPath });
const columnFromInternal = ({
  jsonPath,
  ...rest
}: CustomResourceColumnDefinition): CustomResourceColumnDefinitionV1beta1 => ({ ...rest, JSONPath: jsonPath });

/** Convert_v1beta1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec. */
export function v1beta1SpecToInternal(spec: CustomResourceDefinitionV1beta1Spec): InternalSpec {
  const conversion = spec.conversion;
  const cc = conversion?.webhookClientConfig;
  return compact({
    group: spec.group ?? '',
    version: spec.version ?? undefined,
    names: spec.names,
    scope: spec.scope ?? '',
    validation: spec.validation,
    subresources: spec.subresources,
    versions: (spec.versions ?? []).map(({ additionalPrinterColumns, ...v }) =>
      compact({ ...v, additionalPrinterColumns: additionalPrinterColumns?.map(columnToInternal) }),
    ),
    additionalPrinterColumns: spec.additionalPrinterColumns?.map(columnToInternal),
    selectableFields: spec.selectableFields,
    conversion: conversion
      ? compact({
          strategy: conversion.strategy,
          // The internal port is a plain int32 (Convert_Pointer_int32_To_int32: nil is 0).
          webhookClientConfig: cc
            ? compact({ ...cc, service: cc.service ? { ...cc.service, port: cc.service.port ?? 0 } : cc.service })
            : cc,
          conversionReviewVersions: conversion.conversionReviewVersions,
        })
      : conversion,
    preserveUnknownFields: spec.preserveUnknownFields,
  });
}

/** CustomResourceValidation as v1 and v1beta1 write it: nil pointers omitted. */
function validationOf(v: InternalValidation | null | undefined): CustomResourceDefinitionVersion['schema'] {
  return v == null ? undefined : compact({ openAPIV3Schema: v.openAPIV3Schema ?? undefined });
}

/** A version in v1's field order. */
function v1Version(v: InternalVersion): CustomResourceDefinitionVersion {
  const { name, served, storage, deprecated, deprecationWarning, schema, subresources } = v;
  const { additionalPrinterColumns, selectableFields } = v;
  return compact({
    name,
    served,
    storage,
    deprecated,
    deprecationWarning,
    schema: validationOf(schema),
    subresources,
    additionalPrinterColumns,
    selectableFields,
  });
}

/** Convert_apiextensions_CustomResourceDefinitionSpec_To_v1_CustomResourceDefinitionSpec (and the conversion's). */
export function internalSpecToV1(internal: InternalSpec): CustomResourceDefinitionSpec {
  const spec = structuredClone(internal);
  let versions = spec.versions.map((v) => ({ ...v }));
  if (!versions.length && spec.version) versions = [{ name: spec.version, served: true, storage: true }];
  // Copied into every version when set at all (an empty list clears the versions' own).
  const copy = <K extends 'subresources' | 'schema' | 'additionalPrinterColumns' | 'selectableFields'>(
    field: K,
    top: InternalVersion[K] | undefined,
  ) => {
    if (top == null) return;
    for (const v of versions)
      if (Array.isArray(top) && !top.length) delete v[field];
      else v[field] = structuredClone(top);
  };
  copy('subresources', spec.subresources);
  copy('schema', spec.validation);
  copy('additionalPrinterColumns', spec.additionalPrinterColumns);
  copy('selectableFields', spec.selectableFields);
  const out: CustomResourceDefinitionSpec = {
    group: spec.group,
    names: spec.names,
    scope: spec.scope,
    versions: versions.map(v1Version),
  };
  if (spec.conversion) {
    const { strategy, webhookClientConfig: cc, conversionReviewVersions } = spec.conversion;
    out.conversion = { strategy };
    if (cc != null || conversionReviewVersions != null)
      out.conversion.webhook = compact({
        clientConfig: cc ?? undefined,
        conversionReviewVersions: conversionReviewVersions ?? [],
      });
  }
  if (spec.preserveUnknownFields) out.preserveUnknownFields = true;
  return out;
}

/** Convert_apiextensions_CustomResourceDefinitionSpec_To_v1beta1_CustomResourceDefinitionSpec, in v1beta1's field order. */
export function internalSpecToV1beta1(spec: InternalSpec): CustomResourceDefinitionV1beta1Spec {
  const conversion = spec.conversion;
  return compact({
    group: spec.group,
    version: spec.version,
    names: spec.names,
    scope: spec.scope,
    validation: validationOf(spec.validation),
    subresources: spec.subresources ?? undefined,
    versions: spec.versions.map(({ additionalPrinterColumns, ...v }) =>
      compact({
        ...v1Version(v),
        deprecated: v.deprecated || undefined,
        additionalPrinterColumns: additionalPrinterColumns?.length
          ? additionalPrinterColumns.map(columnFromInternal)
          : undefined,
      }),
    ),
    additionalPrinterColumns: spec.additionalPrinterColumns?.length
      ? spec.additionalPrinterColumns.map(columnFromInternal)
      : undefined,
    selectableFields: spec.selectableFields?.length ? spec.selectableFields : undefined,
    conversion: conversion
      ? compact({
          strategy: conversion.strategy,
          webhookClientConfig: conversion.webhookClientConfig ?? undefined,
          conversionReviewVersions: conversion.conversionReviewVersions?.length
            ? conversion.conversionReviewVersions
            : undefined,
        })
      : undefined,
    // The internal pointer is always set from v1's bool, so v1beta1 always writes it.
    preserveUnknownFields: !!spec.preserveUnknownFields,
  });
}

/** The internal spec of each v1beta1 request, by the v1 spec it was converted into. */
const requested = new WeakMap<object, { internal: InternalSpec; v1: CustomResourceDefinitionSpec }>();

/**
 * The internal spec `crd` was converted from when it is a v1beta1 request not changed since
 * (admission may change it), else undefined: what upstream's validation of that request sees.
 */
export function requestedInternal(crd: CustomResourceDefinition): InternalSpec | undefined {
  const entry = requested.get(crd.spec);
  return entry && goEqual(entry.v1, crd.spec) ? entry.internal : undefined;
}

/** The v1beta1 conversion of the CustomResourceDefinition row. */
export const customResourceDefinitionV1beta1Conversion: VersionConversion = {
  defaults: (obj) => defaultCustomResourceDefinitionV1beta1(obj as CustomResourceDefinitionV1beta1),
  toStorage(obj: ApiObject) {
    const crd = deepCopy(obj) as CustomResourceDefinitionV1beta1;
    const internal = v1beta1SpecToInternal(crd.spec);
    const spec = internalSpecToV1(internal);
    requested.set(spec, { internal, v1: structuredClone(spec) });
    return { ...crd, apiVersion: APIEXTENSIONS_V1, spec };
  },
  fromStorage(obj: ApiObject) {
    const crd = deepCopy(obj) as CustomResourceDefinition;
    const spec = internalSpecToV1beta1(toInternal(crd).spec);
    return { ...crd, apiVersion: APIEXTENSIONS_V1BETA1, spec };
  },
};
