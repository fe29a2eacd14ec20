/**
 * The remote command channel protocols over WebSocket: negotiation in the client's order
 * (upstream wsstream handshake), framing of the binary and base64 protocols (wsstream conn.go's
 * examples: "foo\n" on stdin, "\n" on stdout), the v5 CLOSE signal, and the end of a session
 * on the error channel (a Status in JSON for v4/v5, its message as text before).
 */
import { describe, expect, it } from 'vitest';
import {
  CLOSE,
  STDIN,
  STDOUT,
  decodeFrame,
  decodeResize,
  encodeFrame,
  endMessage,
  negotiate,
} from './channel-protocol.js';

describe('negotiate', () => {
  it("takes the first protocol the client offers that is served, '' for none, undefined for unknown ones", () => {
    expect(negotiate(['v5.channel.k8s.io', 'v4.channel.k8s.io'])).toBe('v5.channel.k8s.io');
    expect(negotiate(['v4.channel.k8s.io', 'v5.channel.k8s.io'])).toBe('v4.channel.k8s.io');
    expect(negotiate(['portforward.k8s.io', 'base64.channel.k8s.io'])).toBe('base64.channel.k8s.io');
    expect(negotiate(['v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'])).toBe('channel.k8s.io');
    expect(negotiate([])).toBe('');
    expect(negotiate(['v2.channel.k8s.io'])).toBeUndefined();
  });
});

describe('frames', () => {
  it('prefixes binary messages with the channel byte', () => {
    expect(encodeFrame('v5.channel.k8s.io', STDOUT, '\n')).toEqual({ binary: true, data: Buffer.from([1, 10]) });
    expect(decodeFrame('channel.k8s.io', Buffer.from([0, 102, 111, 111, 10]))).toEqual({
      channel: STDIN,
      data: Buffer.from('foo\n'),
    });
    expect(decodeFrame('v4.channel.k8s.io', Buffer.alloc(0))).toBeUndefined();
  });

  it('sends base64 protocols as text with the channel as a digit', () => {
    expect(encodeFrame('base64.channel.k8s.io', STDOUT, '\n')).toEqual({ binary: false, data: '1Cg==' });
    expect(decodeFrame('v4.base64.channel.k8s.io', Buffer.from('0Zm9vCg=='))).toEqual({
      channel: STDIN,
      data: Buffer.from('foo\n'),
    });
    expect(() => decodeFrame('base64.channel.k8s.io', Buffer.from('0%%%'))).toThrow(/illegal base64/);
  });

  it('reads the CLOSE signal only under v5', () => {
    expect(decodeFrame('v5.channel.k8s.io', Buffer.from([CLOSE, STDIN]))).toEqual({
      channel: CLOSE,
      data: Buffer.from([0]),
    });
    expect(decodeFrame('v4.channel.k8s.io', Buffer.from([CLOSE, STDIN]))).toBeUndefined();
  });

  it('reads terminal sizes', () => {
    expect(decodeResize(Buffer.from('{"Width":80,"Height":24}'))).toEqual({ width: 80, height: 24 });
    expect(decodeResize(Buffer.from('junk'))).toBeUndefined();
  });
});

describe('the end of a session', () => {
  it('is a Status under v4 and v5', () => {
    expect(JSON.parse(endMessage('v5.channel.k8s.io', { exitCode: 0 })!)).toEqual({ metadata: {}, status: 'Success' });
    const failed = JSON.parse(endMessage('v4.channel.k8s.io', { exitCode: 2, command: ['sh', '-c', 'exit 2'] })!);
    expect(failed).toMatchObject({
      status: 'Failure',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '2' }] },
    });
    expect(failed.message).toBe(
      'command terminated with non-zero exit code: error executing command [sh -c exit 2], exit code 2',
    );
    const internal = JSON.parse(endMessage('v5.channel.k8s.io', { error: 'container not found ("x")' })!);
    expect(internal).toMatchObject({ status: 'Failure', reason: 'InternalError', code: 500 });
    expect(internal.message).toBe('Internal error occurred: container not found ("x")');
  });

  it('is the failure message as text, or nothing, before v4', () => {
    expect(endMessage('channel.k8s.io', { exitCode: 0 })).toBeUndefined();
    expect(endMessage('base64.channel.k8s.io', { error: 'boom' })).toBe('Internal error occurred: boom');
  });
});
