import { readFile, writeFile } from 'node:fs/promises';
import { renderApiTypes } from './render-api-types.js';

/** `npm run api-types` (and `npm run openapi`): regenerates src/api-types/openapi.ts from openapi.yaml. */
const root = new URL('../../../', import.meta.url);
await writeFile(new URL('src/api-types/openapi.ts', root), await renderApiTypes(await readFile(new URL('openapi.yaml', root), 'utf8')));
console.log('src/api-types/openapi.ts written');
