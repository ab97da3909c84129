import { readFileSync } from 'node:fs';
import { renderOpenApiYaml } from './openapi-yaml.js';

describe('openapi.yaml', () => {
  // Rendering builds the whole application's document: once for both checks.
  let generated: string;
  beforeAll(async () => {
    generated = await renderOpenApiYaml();
  });

  it('matches what the controllers describe (regenerate with `npm run openapi`)', async () => {
    const committed = readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8');
    expect(committed).toBe(generated);
  });

  it('documents the REST contract of the sources and tools endpoints', async () => {
    const doc = generated;
    for (const path of ['/api/v1/sources:', '/api/v1/sources/validate:', '/api/v1/sources/{idOrName}/refresh:', '/api/v1/tools/{qualifiedName}:', '/api/v1/secrets/{name}:', '/health/ready:']) {
      expect(doc).toContain(path);
    }
  });
});
