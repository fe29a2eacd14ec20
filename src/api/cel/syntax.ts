/**
 * The CEL syntax tree (types only): what the parser wrapper in ast.ts produces and the checker,
 * interpreter and cost estimator walk.
 */
import type { Value } from './values.js';

/** One node. `id`s are unique in a tree; offsets live in {@link Ast.offsets}. */
export type Expr =
  | { kind: 'const'; id: number; value: Value }
  | { kind: 'ident'; id: number; name: string }
  | { kind: 'select'; id: number; operand: Expr; field: string; testOnly: boolean }
  | { kind: 'call'; id: number; fn: string; target?: Expr; args: Expr[] }
  | { kind: 'list'; id: number; elems: Expr[]; optional?: number[] }
  | { kind: 'map'; id: number; entries: { key: Expr; value: Expr; optional?: boolean }[] }
  | {
      kind: 'comprehension';
      id: number;
      iterVar: string;
      iterVar2?: string;
      iterRange: Expr;
      accuVar: string;
      accuInit: Expr;
      loopCondition: Expr;
      loopStep: Expr;
      result: Expr;
    };

/** A parsed expression with its source and the character offset of each node. */
export interface Ast {
  expr: Expr;
  source: string;
  offsets: Map<number, number>;
}

/** A parse or check error at a character offset of the source. */
export interface SourceError {
  offset: number;
  message: string;
}
