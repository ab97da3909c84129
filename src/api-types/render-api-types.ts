import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

/**
 * The TypeScript types of the REST API (src/api-types/openapi.ts) as openapi-typescript renders
 * them from openapi.yaml's text. Request bodies keep their optional fields optional even when they
 * have a default (`defaultNonNullable: false`), and an object the document leaves open is
 * `Record<string, unknown>`, not an empty one (`emptyObjectsUnknown`).
 */
export async function renderApiTypes(openapiYaml: string): Promise<string> {
  const ast = await openapiTS(openapiYaml, { defaultNonNullable: false, emptyObjectsUnknown: true, silent: true });
  return COMMENT_HEADER + astToString(ast);
}
