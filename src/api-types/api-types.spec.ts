import { readFileSync } from 'node:fs';
import { renderApiTypes } from './render-api-types.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('src/api-types/openapi.ts', () => {
  it('is what openapi.yaml describes (regenerate with `npm run api-types`)', async () => {
    expect(read('src/api-types/openapi.ts')).toBe(await renderApiTypes(read('openapi.yaml')));
  });

  it('changes when openapi.yaml does', async () => {
    const renamed = read('openapi.yaml').replace(/^(\s+)qualifiedName:$/m, '$1qualifiedToolName:');
    const types = await renderApiTypes(renamed);
    expect(types).toContain('qualifiedToolName');
    expect(types).not.toBe(read('src/api-types/openapi.ts'));
  });
});
