import { writeFile } from 'node:fs/promises';
import { renderOpenApiYaml } from './openapi-yaml.js';

/** `npm run openapi`: regenerates openapi.yaml from the code. */
await writeFile(new URL('../../../openapi.yaml', import.meta.url), await renderOpenApiYaml());
console.log('openapi.yaml written');
