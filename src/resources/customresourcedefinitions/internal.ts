/**
 * The internal form of a CustomResourceDefinition that upstream validates (k8s.io/apiextensions-apiserver
 * pkg/apis/apiextensions types.go) and the v1 → internal conversion (pkg/apis/apiextensions/v1
 * conversion.go, 1.33). Upstream validates this form, not v1, so its field paths show through
 * in the messages clients see: when every version has the same schema, subresources, printer
 * columns or selectable fields, the conversion moves them to `spec.validation`,
 * `spec.subresources`, `spec.additionalPrinterColumns`, `spec.selectableFields` (a one-version
 * CRD's schema errors read `spec.validation.openAPIV3Schema...`); `spec.version` is the first
 * version's name; a conversion webhook's fields are `spec.conversion.webhookClientConfig` and
 * `spec.conversion.conversionReviewVersions`. "The same" is apimachinery's semantic equality
 * (goEqual).
 */
import type { ObjectMeta } from '../../api/meta-schema.js';
import type { JSONSchemaProps } from './json-schema-props.js';
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionStatus,
  CustomResourceSubresources,
} from './customresourcedefinitions.schema.js';

/** CustomResourceValidation: `{openAPIV3Schema}`. */
export interface InternalValidation {
  openAPIV3Schema?: JSONSchemaProps | null;
}

/** A selectable field. */
export interface InternalSelectableField {
  jsonPath: string;
}

/** An internal version: v1's, less what was moved to the spec. */
export interface InternalVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean | null;
  deprecationWarning?: string | null;
  schema?: InternalValidation | null;
  subresources?: CustomResourceSubresources | null;
  additionalPrinterColumns?: CustomResourceColumnDefinition[] | null;
  selectableFields?: InternalSelectableField[] | null;
}

/** An internal service reference: the port is a plain int32 (defaulted in v1). */
export interface InternalServiceReference {
  namespace: string;
  name: string;
  path?: string | null;
  port: number;
}

/** The internal conversion settings. */
export interface InternalConversion {
  strategy: string;
  webhookClientConfig?: {
    url?: string | null;
    service?: InternalServiceReference | null;
    /** Base64 as in JSON. */
    caBundle?: string | null;
  } | null;
  conversionReviewVersions?: string[] | null;
}

/** The internal spec. */
export interface InternalSpec {
  group: string;
  version?: string;
  names: CustomResourceDefinitionNames;
  scope: string;
  validation?: InternalValidation | null;
  subresources?: CustomResourceSubresources | null;
  versions: InternalVersion[];
  additionalPrinterColumns?: CustomResourceColumnDefinition[] | null;
  selectableFields?: InternalSelectableField[] | null;
  conversion?: InternalConversion | null;
  /** A pointer upstream: absent and false differ. */
  preserveUnknownFields?: boolean | null;
}

/** The internal object validation reads. */
export interface InternalCrd {
  metadata: ObjectMeta;
  spec: InternalSpec;
  status: CustomResourceDefinitionStatus;
}

/** A value without what Go's zero values and nil/empty collections make indistinguishable. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? value.map(canonical) : undefined;
  if (value === null || value === false || value === '') return undefined;
  if (typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const c = canonical(v);
    if (c !== undefined) out[k] = c;
  }
  return out;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && deepEqual(Reflect.get(a, k), Reflect.get(b, k)));
}

/**
 * apimachinery's semantic equality on JSON: null, false, "" and empty lists equal absence (Go
 * decodes them to the same zero values); empty objects do not (`status: {}` turns a
 * subresource on). Pointer fields set to false or "" are taken as absent too, a difference only
 * for values validation refuses anyway.
 */
export function goEqual(a: unknown, b: unknown): boolean {
  return deepEqual(canonical(a), canonical(b));
}

type PerVersion = 'schema' | 'subresources' | 'additionalPrinterColumns' | 'selectableFields';

/** Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec and the conversion's. */
export function toInternal(crd: CustomResourceDefinition): InternalCrd {
  const v1 = structuredClone(crd.spec);
  const versions: InternalVersion[] = (v1.versions ?? []).map((v) => ({ ...v }));
  const spec: InternalSpec = {
    group: v1.group ?? '',
    names: v1.names ?? { plural: '', kind: '' },
    scope: v1.scope ?? '',
    versions,
    // v1's is a plain bool: the internal pointer is always set (Convert_bool_To_Pointer_bool).
    preserveUnknownFields: !!v1.preserveUnknownFields,
  };
  if (v1.conversion) {
    const { strategy, webhook } = v1.conversion;
    const conversion: InternalConversion = { strategy: strategy ?? '' };
    if (webhook) {
      conversion.conversionReviewVersions = webhook.conversionReviewVersions;
      const cc = webhook.clientConfig;
      if (cc) {
        const service = cc.service && { ...cc.service, port: cc.service.port ?? 0 };
        conversion.webhookClientConfig = { url: cc.url, service, caBundle: cc.caBundle };
      }
    }
    spec.conversion = conversion;
  }
  if (versions.length) {
    spec.version = versions[0].name;
    const hoist = <K extends PerVersion>(field: K, to: 'validation' | K) => {
      const first = versions[0][field];
      if (!versions.every((v) => goEqual(v[field], first))) return;
      if (first != null && !(Array.isArray(first) && !first.length)) Object.assign(spec, { [to]: first });
      for (const v of versions) delete v[field];
    };
    hoist('subresources', 'subresources');
    hoist('schema', 'validation');
    hoist('additionalPrinterColumns', 'additionalPrinterColumns');
    hoist('selectableFields', 'selectableFields');
  }
  return { metadata: crd.metadata, spec, status: crd.status ?? {} };
}
