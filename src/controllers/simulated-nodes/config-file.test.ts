import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSimulatedNodesConfig, parseSimulatedNodesConfig, SimulatedNodesConfigError } from './config-file.js';
import { parseGoDuration } from './duration.js';
import { resolveOptions } from './options.js';

describe('parseGoDuration', () => {
  it.each([
    ['300ms', 300],
    ['2s', 2000],
    ['1.5s', 1500],
    ['1m30s', 90_000],
    ['1h', 3_600_000],
    ['0', 0],
    ['0s', 0],
  ])('%s is %d ms', (text, ms) => expect(parseGoDuration(text)).toBe(ms));

  it.each(['', '5', 's', '1x', '1s ', '-1s', '1s2'])('%j is not a duration', (text) =>
    expect(parseGoDuration(text)).toBeUndefined(),
  );
});

describe('parseSimulatedNodesConfig', () => {
  it('reads every option, durations as ms or Go durations, null for "never"', () => {
    const opts = parseSimulatedNodesConfig(`
apiVersion: sim.ck.io/v1alpha1
kind: SimulatedNodesConfiguration
count: 3
namePrefix: kwok-node-
capacity: { cpu: 8, memory: 32Gi, pods: "110" }
podStartMs: 2s
initContainerRunMs: 50
finitePodRunMs: null
podTerminationMs: 1m
restartBackoffMs: 500ms
maxRestartBackoffMs: 4s
leaseDurationSeconds: 20
`);
    expect(opts).toEqual({
      count: 3,
      namePrefix: 'kwok-node-',
      capacity: { cpu: '8', memory: '32Gi', pods: '110' },
      podStartMs: 2000,
      initContainerRunMs: 50,
      finitePodRunMs: null,
      podTerminationMs: 60_000,
      restartBackoffMs: 500,
      maxRestartBackoffMs: 4000,
      leaseDurationSeconds: 20,
    });
    const resolved = resolveOptions({ count: 0, ...opts });
    expect([resolved.finitePodRunMs, resolved.podStartMs, resolved.allocatable]).toEqual([
      null,
      2000,
      { cpu: '8', memory: '32Gi', pods: '110' },
    ]);
  });

  it('reads JSON and an empty file', () => {
    expect(parseSimulatedNodesConfig('{"podStartMs": 10}')).toEqual({ podStartMs: 10 });
    expect(parseSimulatedNodesConfig('')).toEqual({});
  });

  it.each([
    ['podStartMs: soon', /podStartMs: not a duration: "soon"/],
    ['podStartMs: -5', /podStartMs: not a duration: -5/],
    ['podStartupMs: 5', /Unrecognized key.*podStartupMs/],
    ['count: 1.5', /count: .*expected int/],
    ['kind: KwokConfiguration', /kind: /],
    ['kind: Stage', /document 1, Stage.*\n {2}apiVersion: /s],
    ['podStartMs: [1', /config x.yaml: /],
    ['a: 1\n---\nb: 2', /expected one options document, found 2/],
  ])('refuses %j with a message naming the field', (text, message) => {
    expect(() => parseSimulatedNodesConfig(text, 'x.yaml')).toThrow(SimulatedNodesConfigError);
    expect(() => parseSimulatedNodesConfig(text, 'x.yaml')).toThrow(message);
  });
});

describe('loadSimulatedNodesConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-config-'));

  it('loads a file', () => {
    const file = join(dir, 'sim.yaml');
    writeFileSync(file, 'podTerminationMs: null\nresyncMs: 5s\n');
    expect(loadSimulatedNodesConfig(file)).toEqual({ podTerminationMs: null, resyncMs: 5000 });
  });

  it('names a missing file', () => {
    expect(() => loadSimulatedNodesConfig(join(dir, 'none.yaml'))).toThrow(
      /none\.yaml: cannot read the file \(ENOENT\)/,
    );
  });
});
