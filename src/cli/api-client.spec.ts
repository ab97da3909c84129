import fc from 'fast-check';
import { fillPath } from './api-client.js';

describe('fillPath', () => {
  it('puts each value into its {parameter} as one path segment', () => {
    expect(fillPath('/api/v1/sources/{idOrName}/refresh', { idOrName: 'github' })).toBe('/api/v1/sources/github/refresh');
    expect(fillPath('/api/v1/tools/{qualifiedName}', { qualifiedName: 'a/b?c#d {x}' })).toBe('/api/v1/tools/a%2Fb%3Fc%23d%20%7Bx%7D');
    expect(fillPath('/api/v1/tools')).toBe('/api/v1/tools');
  });

  it('keeps any value (a name typed on the command line) within its segment, and gives it back as it was', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        const path = fillPath('/api/v1/tools/{qualifiedName}/invoke', { qualifiedName: value });
        const segment = path.slice('/api/v1/tools/'.length, -'/invoke'.length);
        expect(segment).not.toMatch(/[/?#{}]/);
        expect(decodeURIComponent(segment)).toBe(value);
      }),
    );
  });

  it('refuses a template whose parameter has no value', () => {
    expect(() => fillPath('/api/v1/executions/{id}', {})).toThrow('no value for {id} in /api/v1/executions/{id}');
  });
});
