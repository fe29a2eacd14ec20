/**
 * The shared CSR loop's sync (upstream 1.33 certificate_controller.go syncFunc): a request that
 * is gone or already has a certificate is not handed on; the handler gets a copy it may change
 * without changing the cache; its failure is thrown for the queue to retry.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { GenericStore } from '../../registry/generic-store.js';
import { CertificateController, IgnorableError } from './certificate-controller.js';
import type { CsrClient } from './csr-client.js';
import type { Csr } from './csr-conditions.js';
import { makeCsr } from './csr.fixture.js';

const logger = pino({ level: 'silent' });

function controllerWith(held: Csr[], handler: (csr: Csr) => Promise<void>): CertificateController {
  const client = { get: async (name: string) => held.find((c) => c.metadata.name === name) } as CsrClient;
  return new CertificateController('test', {} as GenericStore<Csr>, client, handler, logger);
}

describe('CertificateController.sync', () => {
  it('hands a pending request to the handler as a copy', async () => {
    const csr = await makeCsr({ name: 'a' });
    const seen: Csr[] = [];
    await controllerWith([csr], async (c) => {
      c.status = { conditions: [{ type: 'Approved', status: 'True' }] };
      seen.push(c);
    }).sync('a');
    expect(seen).toHaveLength(1);
    expect(seen[0].metadata.name).toBe('a');
    expect(csr.status).toEqual({});
  });

  it('skips a request that is gone or already issued', async () => {
    const issued = await makeCsr({ name: 'done', approved: true });
    issued.status = { ...issued.status, certificate: Buffer.from('x').toString('base64') };
    const seen: string[] = [];
    const controller = controllerWith([issued], async (c) => void seen.push(c.metadata.name ?? ''));
    await controller.sync('done');
    await controller.sync('missing');
    expect(seen).toEqual([]);
  });

  it('throws what the handler throws, ignorable or not, for the queue to retry', async () => {
    const csr = await makeCsr({ name: 'a' });
    await expect(controllerWith([csr], () => Promise.reject(new IgnorableError('not yet'))).sync('a')).rejects.toThrow(
      'not yet',
    );
    await expect(controllerWith([csr], () => Promise.reject(new Error('boom'))).sync('a')).rejects.toThrow('boom');
  });
});
