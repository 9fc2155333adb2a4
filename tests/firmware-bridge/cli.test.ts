import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../firmware-bridge/cli.ts';

describe('bench CLI arguments', () => {
  it('parses settings (pushed by the bridge after every HELLO) and one-off commands in order', () => {
    expect(parseArgs(['--path', '/dev/ttyUSB0', '--set', '2:60:40', '--debounce', '15', '--invert', '8', '--self-test', '--config'])).toEqual({
      path: '/dev/ttyUSB0',
      firmata: false,
      channels: [{ channel: 2, threshold: 60, refractoryMs: 40 }],
      debounceMs: 15,
      invertSwitches: 8,
      commands: [{ kind: 'self-test' }, { kind: 'get-config' }],
    });
  });
  it('names the bad argument', () => {
    expect(() => parseArgs(['--set', '9:60:40'])).toThrow(/--set channel 9/);
    expect(() => parseArgs(['--set', 'x'])).toThrow(/CH:THRESHOLD:REFRACTORY_MS, got "x"/);
    expect(() => parseArgs(['--path'])).toThrow(/--path needs a value/);
    expect(() => parseArgs(['--debounce', '0'])).toThrow(/--debounce/);
    expect(() => parseArgs(['--invert', '128'])).toThrow(/--invert/);
    expect(() => parseArgs(['--frobnicate'])).toThrow(/unknown argument "--frobnicate"/);
  });
});
