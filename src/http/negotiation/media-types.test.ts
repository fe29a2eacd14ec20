import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors/api-error.js';
import { contentTypeOf, decodeBody, negotiate } from './media-types.js';

describe('negotiate', () => {
  it('falls back from Table to plain JSON as kubectl expects', () => {
    expect(
      negotiate(
        'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
      ),
    ).toBe('json');
  });
  it('serves protobuf under the name the client asked for, for objects and watches', () => {
    expect(negotiate('application/vnd.kubernetes.protobuf,application/json')).toBe('protobuf');
    expect(negotiate('application/vnd.ck.protobuf')).toBe('ck-protobuf');
    expect(negotiate('application/vnd.kubernetes.protobuf;q=0.5,application/json')).toBe('json');
    expect(negotiate('application/vnd.kubernetes.protobuf;stream=watch', true)).toBe('protobuf');
    expect(contentTypeOf('ck-protobuf', true)).toBe('application/vnd.ck.protobuf;stream=watch');
  });
  it('honours q-values and wildcards', () => {
    expect(negotiate('application/json;q=0.5, application/yaml')).toBe('yaml');
    expect(negotiate('application/yaml;q=0.1, */*;q=0.8')).toBe('json');
    expect(negotiate('application/*')).toBe('json');
    // goautoneg keeps q=0 clauses (upstream then serves them), and orders a concrete type before a wildcard.
    expect(negotiate('application/json;q=0, text/html')).toBe('json');
    expect(negotiate('*/*, application/yaml')).toBe('yaml');
    expect(() => negotiate('Application/JSON')).toThrow(/only the following media types/);
  });
  it('serves YAML on request, but not for watches', () => {
    expect(negotiate('application/yaml')).toBe('yaml');
    expect(() => negotiate('application/yaml', true)).toThrow(/application\/json;stream=watch/);
  });
  it('gives the same answers when a header comes again, for objects and watches apart, and past the remembered count', () => {
    const header = 'application/yaml, application/json;q=0.9';
    for (let i = 0; i < 3; i++) {
      expect(negotiate(header)).toBe('yaml');
      // For a watch YAML is chosen and cannot stream: 406, not a fallback (upstream NegotiateOutputMediaTypeStream).
      expect(() => negotiate(header, true)).toThrow(/stream=watch/);
      expect(negotiate('application/json, application/yaml;q=0.9', true)).toBe('json');
    }
    for (let i = 0; i < 600; i++) expect(negotiate(`application/json;x=${i}, application/yaml`)).toBe('json');
    expect(negotiate(header)).toBe('yaml');
    expect(negotiate(`${'application/x-long;'.repeat(40)}, application/yaml`)).toBe('yaml');
  });
  it('answers 406 NotAcceptable for unknown types', () => {
    try {
      negotiate('text/html');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).toStatus()).toMatchObject({ code: 406, reason: 'NotAcceptable' });
    }
  });
});

describe('decodeBody', () => {
  it('decodes JSON and YAML', () => {
    expect(decodeBody('application/json', '{"a":1}')).toEqual({ a: 1 });
    expect(decodeBody('application/yaml', 'a: 1\n')).toEqual({ a: 1 });
  });
  it('rejects other media types with 415 and malformed bodies with 400', () => {
    expect(() => decodeBody('text/plain', 'x')).toThrow(/unknown format/);
    expect(() => decodeBody('application/json', '{')).toThrow(/couldn't decode/);
  });
});
