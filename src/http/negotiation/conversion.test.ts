import { describe, expect, it } from 'vitest';
import { conversionRequest, type ConversionTarget } from './conversion.js';

const DISCOVERY: ConversionTarget[] = [
  { as: 'APIGroupDiscoveryList', groups: ['apidiscovery.k8s.io', 'apidiscovery.ck.io'], versions: ['v2', 'v2beta1'] },
];

describe('conversionRequest', () => {
  it('takes the first acceptable conversion, as kubectl 1.30+ asks for aggregated discovery', () => {
    const accept =
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
    expect(conversionRequest(accept, DISCOVERY)).toEqual({
      as: 'APIGroupDiscoveryList',
      group: 'apidiscovery.k8s.io',
      version: 'v2',
      format: 'json',
      contentType: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    });
  });

  it('skips versions and kinds it does not offer, and answers plain when a plain range comes first', () => {
    expect(
      conversionRequest(
        'application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList,application/json;g=apidiscovery.ck.io;v=v2beta1;as=APIGroupDiscoveryList',
        DISCOVERY,
      )?.version,
    ).toBe('v2beta1');
    expect(conversionRequest('application/json;as=Table;g=meta.k8s.io;v=v1,application/json', DISCOVERY)).toBeNull();
    expect(
      conversionRequest(
        'application/json,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
        DISCOVERY,
      ),
    ).toBeNull();
    expect(conversionRequest(undefined, DISCOVERY)).toBeNull();
  });

  it('orders by q-value and ignores q=0', () => {
    const accept = 'application/json;q=0.5,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;q=0.9';
    expect(conversionRequest(accept, DISCOVERY)?.version).toBe('v2');
    expect(
      conversionRequest('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;q=0', DISCOVERY),
    ).toBeNull();
  });
});
