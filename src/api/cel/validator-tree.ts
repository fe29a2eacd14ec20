/**
 * The tree of compiled rules of a schema, as upstream's NewValidator builds it
 * (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go validator, nestedToStructural):
 * a node per schema node that has rules or descendants with rules, allOf entries compiled against
 * the node's own type.
 */
import type { NestedValueValidation, Structural } from '../crd-schema/types.js';
import { type CompiledRule, compileRules } from './compile.js';
import { type DeclType, schemaDeclType } from './decl-type.js';
import type { EnvKind } from './env.js';

/** One schema node with rules. */
export interface Node {
  schema: Structural;
  isResourceRoot: boolean;
  declType?: DeclType;
  rules: CompiledRule[];
  items?: Node;
  properties?: Map<string, Node>;
  additionalProperties?: Node;
  /** Validators of the rules under `allOf` (typed by this node's schema). */
  allOf?: Node[];
}

/**
 * Upstream's validator(validationSchema, nodeSchema): the rules of `validation` compiled against
 * the type of `node` (they differ under allOf), recursing where both have a child.
 */
export function build(
  validation: Structural,
  node: Structural,
  isResourceRoot: boolean,
  env: EnvKind,
): Node | undefined {
  const withRules: Structural = {
    ...node,
    extensions: { ...node.extensions, xValidations: validation.extensions?.xValidations },
  };
  const rules = compileRules(withRules, { isResourceRoot, env });
  const declType = rules.length ? schemaDeclType(node, isResourceRoot) : undefined;
  const items =
    validation.items && node.items
      ? build(validation.items, node.items, !!node.items.extensions?.xEmbeddedResource, env)
      : undefined;
  const vap = validation.generic?.additionalProperties?.structural;
  const nap = node.generic?.additionalProperties?.structural;
  const additionalProperties = vap && nap ? build(vap, nap, !!nap.extensions?.xEmbeddedResource, env) : undefined;
  let properties: Map<string, Node> | undefined;
  for (const [k, p] of Object.entries(validation.properties ?? {})) {
    const np = node.properties?.[k];
    const child = np ? build(p, np, !!np.extensions?.xEmbeddedResource, env) : undefined;
    if (child) (properties ??= new Map()).set(k, child);
  }
  const allOf = (validation.valueValidation?.allOf ?? [])
    .map((n) => build(nestedToStructural(n), node, isResourceRoot, env))
    .filter((n): n is Node => n !== undefined);
  if (!rules.length && !items && !additionalProperties && !properties && !allOf.length) return undefined;
  return {
    schema: node,
    isResourceRoot,
    declType,
    rules,
    items,
    properties,
    additionalProperties,
    allOf: allOf.length ? allOf : undefined,
  };
}

/** A nested value validation with `additionalProperties` (upstream has it; see requests.md for crd-schema). */
type Nested = NestedValueValidation & { additionalProperties?: Nested };

/** Upstream nestedToStructural: an allOf entry as a schema carrying its rules. */
function nestedToStructural(n: Nested): Structural {
  const out: Structural = {
    valueValidation: n,
    generic: n.forbiddenGenerics,
    extensions: n.forbiddenExtensions,
  };
  if (n.items) out.items = nestedToStructural(n.items);
  if (n.properties)
    out.properties = Object.fromEntries(Object.entries(n.properties).map(([k, v]) => [k, nestedToStructural(v)]));
  if (n.additionalProperties) {
    out.generic = {
      ...out.generic,
      additionalProperties: { bool: true, structural: nestedToStructural(n.additionalProperties) },
    };
  }
  return out;
}
