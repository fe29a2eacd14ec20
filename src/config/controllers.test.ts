import { describe, expect, it } from 'vitest';
import { controllerEnabled } from './controllers.js';
import { loadConfig } from './load-config.js';

describe('--controllers (upstream IsControllerEnabled)', () => {
  it.each([
    [['*'], 'replicaset', true, true],
    [['*'], 'bootstrapsigner', false, false],
    [['*', '-replicaset'], 'replicaset', true, false],
    [['*', 'bootstrapsigner'], 'bootstrapsigner', false, true],
    [['replicaset'], 'deployment', true, false],
    [['replicaset', '-replicaset'], 'replicaset', true, false],
    [[], 'replicaset', true, false],
  ] as const)('%j: %s (on by default %s) runs: %s', (flag, name, onByDefault, runs) => {
    expect(controllerEnabled(flag, name, onByDefault)).toBe(runs);
  });

  it('reads the flag and --simulated-nodes', () => {
    const config = loadConfig(['--controllers=*,-deployment', '--simulated-nodes=3'], {});
    expect(config.controllers).toEqual(['*', '-deployment']);
    expect(config.simulatedNodes).toBe(3);
    expect(loadConfig([], {}).controllers).toEqual(['*']);
    expect(() => loadConfig(['--simulated-nodes=-1'], {})).toThrow();
    expect(loadConfig([], {}).scheduler).toBe('auto');
    expect(loadConfig(['--scheduler=false'], {}).scheduler).toBe('false');
    expect(() => loadConfig(['--scheduler=maybe'], {})).toThrow();
  });
});
