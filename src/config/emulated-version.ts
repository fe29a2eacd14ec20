/**
 * The Kubernetes version the server reports (`--emulated-version`, upstream's flag of
 * KEP-4330 compatibility versions, k8s.io/component-base/compatibility): `major.minor`, or
 * `kube=major.minor` as upstream writes it for its components. Clients and charts read it from
 * `/version` to choose apiVersions and to check a chart's `kubeVersion`.
 */

/** A Kubernetes minor version, e.g. `{ major: 1, minor: 33 }`. */
export interface KubeVersion {
  readonly major: number;
  readonly minor: number;
}

/** The newest version whose API this server follows (its "binary" version), and the default. */
export const LATEST_KUBE_VERSION: KubeVersion = { major: 1, minor: 33 };
/** The oldest version it may report: the spec's API (1.10). */
export const OLDEST_KUBE_VERSION: KubeVersion = { major: 1, minor: 10 };

const text = (v: KubeVersion) => `${v.major}.${v.minor}`;

/**
 * Parse a `--emulated-version` value. Throws Error with upstream's wording for a malformed
 * value (`illegal version string "x"`) or one outside [1.10, 1.33] (`emulation version 1.34 is
 * not between [1.10, 1.33]`).
 */
export function parseEmulatedVersion(value: string): KubeVersion {
  const parts = value.split(',').map((p) => p.trim());
  const kube = parts.find((p) => !p.includes('=') || p.startsWith('kube='));
  const unknown = parts.find((p) => p.includes('=') && !p.startsWith('kube='));
  if (unknown) throw new Error(`unsupported component "${unknown.split('=')[0]}": only kube is known`);
  const m = /^(?:kube=)?v?(\d+)\.(\d+)$/.exec(kube ?? '');
  if (!m) throw new Error(`illegal version string "${value}"`);
  const version = { major: Number(m[1]), minor: Number(m[2]) };
  const order = (v: KubeVersion) => v.major * 1000 + v.minor;
  if (order(version) < order(OLDEST_KUBE_VERSION) || order(version) > order(LATEST_KUBE_VERSION)) {
    throw new Error(
      `emulation version ${text(version)} is not between [${text(OLDEST_KUBE_VERSION)}, ${text(LATEST_KUBE_VERSION)}]`,
    );
  }
  return version;
}
