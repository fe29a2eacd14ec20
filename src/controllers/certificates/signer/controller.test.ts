/**
 * Which signers the csrsigning controller runs (kube-controller-manager certificates.go
 * startCSRSigningController): none, with upstream's log line, without signing files; all four
 * on the server's own CA when no flag is given; the flags over that CA when given.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { ResourceRegistry } from '../../../registry/resource-registry.js';
import { CsrSigningController } from './controller.js';

/** A registry whose CSR store has the subresources the controller writes through. */
const registry = {
  of: () => ({
    def: { plural: 'certificatesigningrequests', subresources: [{ name: 'status' }, { name: 'approval' }] },
  }),
} as unknown as ResourceRegistry;

function captured(): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line).msg) });
  return { logger, lines };
}

describe('CsrSigningController', () => {
  it('stays off and says so without signing files', () => {
    const { logger, lines } = captured();
    const c = new CsrSigningController(registry, logger, {});
    expect(c.signerNames).toEqual([]);
    expect(lines).toContain('Skipping CSR signer controller because no csr cert/key was specified');
    c.start();
    c.stop();
  });

  it("runs every built-in signer on the server's CA when no flag is given", () => {
    const c = new CsrSigningController(registry, captured().logger, {
      defaultFiles: { certFile: 'ca.crt', keyFile: 'ca.key' },
    });
    expect(c.signerNames).toEqual([
      'kubernetes.io/kubelet-serving',
      'kubernetes.io/kube-apiserver-client-kubelet',
      'kubernetes.io/kube-apiserver-client',
      'kubernetes.io/legacy-unknown',
    ]);
  });

  it('prefers the flags to the server CA: per-signer files run only those signers', () => {
    const c = new CsrSigningController(registry, captured().logger, {
      defaultFiles: { certFile: 'ca.crt', keyFile: 'ca.key' },
      signerFiles: { 'kubernetes.io/kube-apiserver-client': { certFile: 'client.crt', keyFile: 'client.key' } },
    });
    expect(c.signerNames).toEqual(['kubernetes.io/kube-apiserver-client']);
  });
});
