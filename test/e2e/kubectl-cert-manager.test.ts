/**
 * A real project's CustomResourceDefinitions through kubectl, as an operator's users install
 * them: cert-manager's six CRDs (test/fixtures/cert-manager) applied server-side and
 * Established; a valid Issuer and Certificate accepted; an invalid Certificate refused with
 * upstream's messages; `kubectl get` prints the definitions' columns and `kubectl explain` the
 * schema's fields; deleting the definitions removes their objects. kubectl 1.33 (OpenAPI v3)
 * and 1.27 (OpenAPI v2, protobuf).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { serversOnEtcd } from '../helpers/servers-on-etcd.js';

const started = serversOnEtcd(1);
const CRDS = join(import.meta.dirname, '../fixtures/cert-manager');
const KUBECTLS = [
  ['1.33', '/usr/lib/google-cloud-sdk/bin/kubectl.1.33'],
  ['1.27', '/usr/lib/google-cloud-sdk/bin/kubectl.1.27'],
] as const;

const VALID = `apiVersion: cert-manager.io/v1
kind: Issuer
metadata:
  name: selfsigned
spec:
  selfSigned: {}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: my-cert
spec:
  secretName: my-cert-tls
  dnsNames: [example.com]
  issuerRef:
    name: selfsigned
    kind: Issuer
`;

const INVALID = `apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: bad-cert
spec:
  secretName: 5
  issuerRef: {}
  privateKey:
    algorithm: DSA
`;

describe.each(KUBECTLS)('kubectl %s with cert-manager', (version, kubectl) => {
  const ns = `cm-${version.replace('.', '-')}`;
  const k = (...args: string[]) =>
    run(kubectl, [`--kubeconfig=${started.servers[0].kubeconfig}`, ...args], { timeoutMs: 90_000 });
  const kInput = (input: string, ...args: string[]) =>
    run(kubectl, [`--kubeconfig=${started.servers[0].kubeconfig}`, ...args], { input, timeoutMs: 90_000 });

  it('installs the CRDs server-side, accepts valid objects, refuses invalid ones, prints columns and explains fields', async () => {
    const applied = await k('apply', '--server-side', '--force-conflicts', '-f', CRDS);
    expect(applied.code, applied.stderr).toBe(0);
    const established = await k('wait', '--for=condition=Established', '--timeout=30s', '-f', CRDS);
    expect(established.code, established.stderr).toBe(0);
    await k('create', 'namespace', ns);

    const valid = await kInput(VALID, '-n', ns, 'apply', '--server-side', '-f', '-');
    expect(valid.code, valid.stderr).toBe(0);
    const invalid = await kInput(INVALID, '-n', ns, 'apply', '-f', '-');
    expect(invalid.code).not.toBe(0);
    expect(invalid.stderr).toContain('spec.issuerRef.name: Required value');
    expect(invalid.stderr).toContain(
      'spec.privateKey.algorithm: Unsupported value: "DSA": supported values: "RSA", "ECDSA", "Ed25519"',
    );
    expect(invalid.stderr).toContain(
      'spec.secretName: Invalid value: "integer": spec.secretName in body must be of type string: "integer"',
    );

    const table = await k('-n', ns, 'get', 'certificates', '-o', 'wide');
    expect(table.code, table.stderr).toBe(0);
    const [header, row] = table.stdout.trim().split('\n');
    expect(header!.split(/\s+/)).toEqual(['NAME', 'READY', 'SECRET', 'ISSUER', 'STATUS', 'EXPIRATION', 'AGE']);
    expect(row).toMatch(/^my-cert\s+my-cert-tls\s+selfsigned\s+\S+$/);
    const short = await k('-n', ns, 'get', 'certs', '-o', 'name');
    expect(short.stdout.trim()).toBe('certificate.cert-manager.io/my-cert');

    const explained = await k('explain', 'certificate.spec.privateKey.algorithm');
    expect(explained.code, explained.stderr).toBe(0);
    expect(explained.stdout).toContain('Algorithm is the private key algorithm');
  });

  it('deletes every object with its definition', async () => {
    const deleted = await k('delete', '-f', join(CRDS, 'cert-manager.io_certificates.yaml'), '--timeout=60s');
    expect(deleted.code, deleted.stderr).toBe(0);
    const gone = await k('-n', ns, 'get', 'certificates');
    expect(gone.code).not.toBe(0);
    // kubectl's cached discovery still names the resource; the server no longer serves it.
    expect(gone.stderr).toMatch(
      /the server could not find the requested resource|doesn't have a resource type "certificates"/,
    );
    // Put it back for the next kubectl: a new definition of the same name starts empty.
    expect((await k('apply', '--server-side', '-f', join(CRDS, 'cert-manager.io_certificates.yaml'))).code).toBe(0);
    expect((await k('wait', '--for=condition=Established', 'crd/certificates.cert-manager.io')).code).toBe(0);
    const empty = await k('-n', ns, 'get', 'certificates', '-o', 'name');
    expect(empty.stdout.trim()).toBe('');
  });
});
