/**
 * The production metrics client's answers before any call is made: no APIService
 * `v1beta1.metrics.k8s.io`, a local one (no service) or one not Available is client-go's
 * not-found text, as the HPA's condition shows it; a registered one whose Service has no ready
 * endpoint is the aggregator's 503 text.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../errors/api-error.js';
import type { ResourceRegistry } from '../../../registry/resource-registry.js';
import { apiServiceMetricsClient } from './api-client.js';
import { METRICS_API_NOT_FOUND } from './types.js';

/** A registry whose only store answers `apiService` for every get (a 404 when undefined). */
function registryWith(apiService: unknown): ResourceRegistry {
  const store = {
    get: async () => {
      if (!apiService) throw new ApiError(404, 'NotFound', 'not found');
      return apiService;
    },
  };
  return { lookup: () => store } as unknown as ResourceRegistry;
}

const available = { conditions: [{ type: 'Available', status: 'True' }] };
const remote = {
  service: { namespace: 'kube-system', name: 'metrics-server', port: 443 },
  group: 'metrics.k8s.io',
  version: 'v1beta1',
};
const noEndpoint = async () => {
  throw new Error('no endpoints available for service "metrics-server"');
};

describe('apiServiceMetricsClient', () => {
  const cases: [string, unknown][] = [
    ['no APIService', undefined],
    [
      'a local APIService',
      { metadata: { name: 'v1beta1.metrics.k8s.io' }, spec: { group: 'metrics.k8s.io' }, status: available },
    ],
    [
      'an APIService not Available',
      {
        metadata: { name: 'v1beta1.metrics.k8s.io' },
        spec: remote,
        status: { conditions: [{ type: 'Available', status: 'False' }] },
      },
    ],
  ];
  for (const [name, svc] of cases)
    it(`answers upstream's not-found error for ${name}`, async () => {
      await expect(apiServiceMetricsClient(registryWith(svc), noEndpoint).podMetrics('ns', 'app=x')).rejects.toThrow(
        METRICS_API_NOT_FOUND,
      );
    });

  it('answers the service-unavailable error when the Service has no ready endpoint', async () => {
    const svc = { metadata: { name: 'v1beta1.metrics.k8s.io' }, spec: remote, status: available };
    await expect(apiServiceMetricsClient(registryWith(svc), noEndpoint).podMetrics('ns', '')).rejects.toThrow(
      'the server is currently unable to handle the request (get pods.metrics.k8s.io)',
    );
  });
});
