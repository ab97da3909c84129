import type { CatalogTool } from '../domain/tool-definition.js';

/** Read side for one tool; listings are the catalog's (its snapshot). */
export abstract class ToolViews {
  abstract get(qualifiedName: string): Promise<CatalogTool | undefined>;
}
