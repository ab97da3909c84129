import fc from 'fast-check';
import { nearMiss } from './near-miss.js';

describe('nearMiss', () => {
  const known = ['pluginDir', 'command', 'args', 'url', 'timeoutMs'];

  it('finds a name that differs in letter case or by up to two edits', () => {
    expect(nearMiss('PluginDIR', known)).toBe('pluginDir');
    expect(nearMiss('pluginDri', known)).toBe('pluginDir');
    expect(nearMiss('comand', known)).toBe('command');
    expect(nearMiss('timeout', known)).toBe('timeoutMs');
    expect(nearMiss('timeoutSeconds', known)).toBeUndefined();
    expect(nearMiss('xy', known)).toBeUndefined();
  });

  it('answers a known name or nothing, for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.array(fc.string({ maxLength: 20 }), { maxLength: 10 }), (given, names) => {
        const found = nearMiss(given, names);
        expect(found === undefined || names.includes(found)).toBe(true);
      }),
    );
  });
});
