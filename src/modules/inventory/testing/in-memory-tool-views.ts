import { ToolViews } from '../application/tool-views.js';
import type { CatalogTool } from '../domain/tool-definition.js';

/** Tools as given, by qualified name. */
export class InMemoryToolViews extends ToolViews {
  constructor(private readonly tools: CatalogTool[] = []) {
    super();
  }

  async get(qualifiedName: string): Promise<CatalogTool | undefined> {
    return this.tools.find((tool) => tool.qualifiedName === qualifiedName);
  }
}
