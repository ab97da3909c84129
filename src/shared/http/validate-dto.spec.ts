import { RegisterSourceDto } from '../../modules/sources/interface/source.dto.js';
import { validateDto } from './validate-dto.js';

describe('validateDto', () => {
  const stdio = { name: 'demo', transport: 'stdio', command: 'node' };

  it('suggests the known property an unknown one nearly spells', async () => {
    for (const [given, meant] of [
      ['plugindir', 'pluginDir'],
      ['PLUGINDIR', 'pluginDir'],
      ['pluginDri', 'pluginDir'],
      ['plugnDir', 'pluginDir'],
      ['timeoutMS', 'timeoutMs'],
      ['argz', 'args'],
      ['readonly', 'readOnly'],
    ]) {
      const { problems } = await validateDto(RegisterSourceDto, { ...stdio, [given!]: 'x' });
      expect(problems).toEqual([{ path: given, message: `is not a known property; did you mean \`${meant}\`?` }]);
    }
  });

  it('suggests a nested DTO’s own properties', async () => {
    const { problems } = await validateDto(RegisterSourceDto, { ...stdio, sandbox: { netwrok: false } });
    expect(problems).toEqual([{ path: 'sandbox.netwrok', message: 'is not a known property; did you mean `network`?' }]);
  });

  it('suggests nothing for a name far from every known one', async () => {
    const { problems } = await validateDto(RegisterSourceDto, { ...stdio, colour: 'blue', x: 1 });
    expect(problems).toEqual([
      { path: 'colour', message: 'is not a known property' },
      { path: 'x', message: 'is not a known property' },
    ]);
  });

  it('leaves out of the value each property that has a problem', async () => {
    const { value } = await validateDto(RegisterSourceDto, { ...stdio, args: 'abc', timeoutMs: 1000 });
    expect(value).toEqual({ ...stdio, timeoutMs: 1000 });
  });
});
