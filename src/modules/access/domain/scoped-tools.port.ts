import type { ScopedTool } from './tool-scope.js';

/** What the access decision needs to know of a catalog tool: its name and its source's (undefined: no such tool). */
export abstract class ScopedTools {
  abstract find(qualifiedName: string): Promise<ScopedTool | undefined>;
}
