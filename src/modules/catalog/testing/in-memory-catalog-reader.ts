import { CatalogReader, type CatalogReading, type ToolTimes } from '../application/catalog-reader.js';
import type { CatalogTool } from '../domain/catalog.js';
import type { CatalogSourceSettings } from '../domain/catalog-snapshot.js';

/** The stored catalog held in memory; counts its reads, and fails while `failure` is set. */
export class InMemoryCatalogReader extends CatalogReader {
  readonly tools = new Map<string, CatalogTool>();
  readonly sources = new Map<string, CatalogSourceSettings>();
  reads = 0;
  failure: Error | undefined;

  add(source: CatalogSourceSettings, ...tools: CatalogTool[]): this {
    this.sources.set(source.id, source);
    for (const tool of tools) this.tools.set(tool.id, tool);
    return this;
  }

  async readAll(): Promise<CatalogReading> {
    this.read();
    return { tools: [...this.tools.values()], sources: [...this.sources.values()] };
  }

  async readSource(sourceId: string): Promise<CatalogReading | undefined> {
    this.read();
    const source = this.sources.get(sourceId);
    if (!source) return undefined;
    return { tools: [...this.tools.values()].filter((tool) => tool.source.id === sourceId), sources: [source] };
  }

  async readTimes(toolIds: readonly string[]): Promise<Map<string, ToolTimes>> {
    this.read();
    const times = new Map<string, ToolTimes>();
    for (const id of toolIds) {
      const tool = this.tools.get(id);
      if (tool) times.set(id, { firstSeenAt: tool.firstSeenAt, lastSeenAt: tool.lastSeenAt, updatedAt: tool.updatedAt });
    }
    return times;
  }

  private read(): void {
    this.reads += 1;
    if (this.failure) throw this.failure;
  }
}
