/**
 * Cost and size ranges of the static estimator, with cel-go's saturating uint64 arithmetic
 * (checker/cost.go CostEstimate, SizeEstimate), and the Kubernetes functions whose estimated
 * cost is a flat 1 (k8s.io/apiserver pkg/cel/library/cost.go).
 */
/** A [min, max] cost or size; the max saturates at 2^64-1 as cel-go's uint64 arithmetic does. */
export interface Range {
  min: number;
  max: number;
}

/** 2^64, standing for cel-go's math.MaxUint64 (saturated sums and products). */
export const UINT64_MAX = 2 ** 64;
/** `x` saturated at 2^64. */
export const sat = (x: number): number => (x >= UINT64_MAX || !Number.isFinite(x) ? UINT64_MAX : x);
/** Saturating sum. */
export const add = (a: Range, b: Range): Range => ({ min: sat(a.min + b.min), max: sat(a.max + b.max) });
/** Saturating product. */
export const mul = (a: Range, b: Range): Range => ({ min: sat(a.min * b.min), max: sat(a.max * b.max) });
/** `a` × a cost factor, rounded up (cel-go multiplyByCostFactor). */
export const factor = (a: Range, f: number): Range => ({
  min: sat(Math.ceil(a.min * f)),
  max: sat(Math.ceil(a.max * f)),
});
/** The range covering both. */
export const union = (a: Range, b: Range): Range => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });
/** [n, n]. */
export const fixed = (n: number): Range => ({ min: n, max: n });
/** An unknown size: [0, 2^64]. */
export const UNKNOWN: Range = { min: 0, max: UINT64_MAX };
/** [0, 0]. */
export const ZERO = fixed(0);
/** [1, 1]. */
export const ONE = fixed(1);

/** Kubernetes library functions estimated at a cost of 1. */
export const K8S_UNIT = new Set(
  'masked prefixLength family isUnspecified isLoopback isLinkLocalMulticast isLinkLocalUnicast isGlobalUnicast format.named sign asInteger isInteger asApproximateFloat isGreaterThan isLessThan compareTo add sub major minor patch getScheme getHostname getHost getPort getEscapedPath getQuery'.split(
    ' ',
  ),
);
