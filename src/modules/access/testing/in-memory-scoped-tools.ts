import { ScopedTools } from '../domain/scoped-tools.port.js';
import type { ScopedTool } from '../domain/tool-scope.js';

/** The catalog's tools as the access decision sees them: a name and its source's. */
export class InMemoryScopedTools extends ScopedTools {
  constructor(private readonly tools: readonly ScopedTool[] = []) {
    super();
  }

  async find(qualifiedName: string): Promise<ScopedTool | undefined> {
    return this.tools.find((tool) => tool.qualifiedName === qualifiedName);
  }
}
