import { describe, expect, it } from 'vitest';
import { parseBool, parseRequestInfo } from './request-info.js';

describe('parseRequestInfo', () => {
  const cases: [string, string, string | undefined, Partial<ReturnType<typeof parseRequestInfo>>][] = [
    ['GET', '/api/v1/pods', undefined, { verb: 'list', resource: 'pods', namespace: '', name: '' }],
    ['GET', '/api/v1/namespaces/default/pods', undefined, { verb: 'list', resource: 'pods', namespace: 'default' }],
    ['GET', '/api/v1/namespaces/default/pods/web', undefined, { verb: 'get', resource: 'pods', name: 'web' }],
    ['GET', '/api/v1/namespaces/default/pods', 'True', { verb: 'watch', resource: 'pods' }],
    ['GET', '/api/v1/namespaces/default/pods', 'false', { verb: 'list' }],
    ['GET', '/api/v1/watch/namespaces/default/pods/web', undefined, { verb: 'watch', name: 'web', legacyWatch: true }],
    ['GET', '/api/v1/watch/pods', undefined, { verb: 'watch', resource: 'pods', namespace: '' }],
    [
      'GET',
      '/api/v1/namespaces/team-a',
      undefined,
      { verb: 'get', resource: 'namespaces', name: 'team-a', namespace: 'team-a' },
    ],
    [
      'PUT',
      '/api/v1/namespaces/team-a/finalize',
      undefined,
      { verb: 'update', resource: 'namespaces', name: 'team-a', subresource: 'finalize' },
    ],
    [
      'PATCH',
      '/api/v1/namespaces/team-a/status',
      undefined,
      { verb: 'patch', resource: 'namespaces', subresource: 'status' },
    ],
    [
      'POST',
      '/api/v1/namespaces/d/pods/web/binding',
      undefined,
      { verb: 'create', resource: 'pods', name: 'web', subresource: 'binding' },
    ],
    ['DELETE', '/api/v1/nodes', undefined, { verb: 'deletecollection', resource: 'nodes' }],
    ['DELETE', '/api/v1/nodes/n1', undefined, { verb: 'delete', resource: 'nodes', name: 'n1' }],
    [
      'GET',
      '/apis/security.platform.io/v1/securitycontextconstraints/a',
      undefined,
      { verb: 'get', group: 'security.platform.io', version: 'v1', name: 'a' },
    ],
    [
      'GET',
      '/api/v1/namespaces/d/pods/web:8080/proxy/a%2Fb/c/',
      undefined,
      { verb: 'get', name: 'web:8080', subresource: 'proxy', extra: ['a/b', 'c'], subpath: '/a%2Fb/c/' },
    ],
    [
      'POST',
      '/api/v1/namespaces/d/pods/web/exec',
      undefined,
      { verb: 'create', subresource: 'exec', extra: [], subpath: '' },
    ],
    [
      'DELETE',
      '/api/v1/nodes/n1/proxy/',
      undefined,
      { verb: 'delete', name: 'n1', subresource: 'proxy', subpath: '/' },
    ],
    [
      'GET',
      '/api/v1/namespaces/d/services/https:web:443/proxy//x',
      undefined,
      { name: 'https:web:443', subresource: 'proxy', extra: ['x'], subpath: '//x' },
    ],
  ];
  it.each(cases)('%s %s (watch=%s)', (method, path, watch, expected) => {
    const info = parseRequestInfo(method, path, watch);
    expect(info.isResourceRequest).toBe(true);
    expect(info).toMatchObject(expected);
  });

  it('treats discovery paths as non-resource requests', () => {
    for (const p of ['/api', '/api/v1', '/apis', '/apis/apps', '/apis/apps/v1', '/healthz']) {
      expect(parseRequestInfo('GET', p).isResourceRequest).toBe(false);
    }
  });

  it('parses booleans as Go does for watch', () => {
    expect(['true', 'True', '1', 't', ''].map(parseBool)).toEqual([true, true, true, true, true]);
    expect(['false', '0', 'False', 'f'].map(parseBool)).toEqual([false, false, false, false]);
    expect(parseBool(undefined)).toBe(false);
  });
});
