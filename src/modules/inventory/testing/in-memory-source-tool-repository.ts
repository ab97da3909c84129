import { SourceTool, type SourceToolProps } from '../domain/source-tool.js';
import { SourceToolRepository } from '../domain/source-tool.repository.js';
import type { ScannedTool } from '../domain/definition-scan/index.js';

/** Tools kept as rows: copies go in and come out, so only what a handler saves is stored. */
export class InMemorySourceToolRepository extends SourceToolRepository {
  private readonly rows = new Map<string, SourceToolProps>();

  constructor(tools: readonly SourceTool[] = []) {
    super();
    for (const tool of tools) this.rows.set(tool.snapshot().id, structuredClone(tool.snapshot()));
  }

  /** Every row, retired ones included, by qualified name. */
  all(): Readonly<SourceToolProps>[] {
    return [...this.rows.values()].sort((a, b) => (a.qualifiedName < b.qualifiedName ? -1 : 1));
  }

  /** The row of a qualified name, retired or not. */
  stored(qualifiedName: string): Readonly<SourceToolProps> | undefined {
    return [...this.rows.values()].find((row) => row.qualifiedName === qualifiedName);
  }

  async forSource(sourceId: string): Promise<SourceTool[]> {
    return this.live()
      .filter((row) => row.sourceId === sourceId)
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((row) => SourceTool.restore(structuredClone(row)));
  }

  async takenNames(exceptSourceId: string, names: readonly string[]): Promise<Set<string>> {
    const wanted = new Set(names);
    return new Set(this.live().filter((row) => row.sourceId !== exceptSourceId && wanted.has(row.qualifiedName)).map((row) => row.qualifiedName));
  }

  async findLive(id: string): Promise<SourceTool | undefined> {
    const row = this.live().find((r) => r.id === id);
    return row ? SourceTool.restore(structuredClone(row)) : undefined;
  }

  async findLiveByQualifiedName(qualifiedName: string): Promise<SourceTool | undefined> {
    const row = this.live().find((r) => r.qualifiedName === qualifiedName);
    return row ? SourceTool.restore(structuredClone(row)) : undefined;
  }

  async saveAll(tools: SourceTool[]): Promise<void> {
    for (const tool of tools) this.rows.set(tool.snapshot().id, structuredClone(tool.snapshot()));
  }

  async markSeen(tools: SourceTool[], now: Date): Promise<void> {
    for (const tool of tools) {
      const row = this.rows.get(tool.snapshot().id);
      if (row) row.lastSeenAt = now;
    }
  }

  /** The other sources' active tools, each source named by its id. */
  async scanPeers(exceptSourceId: string): Promise<ScannedTool[]> {
    return this.live()
      .filter((row) => row.sourceId !== exceptSourceId && row.status === 'active')
      .map((row) => ({ sourceName: row.sourceId, name: row.name, title: row.title, description: row.description, inputSchema: row.inputSchema, outputSchema: row.outputSchema, annotations: row.annotations }));
  }

  async retireAll(sourceId: string, now: Date): Promise<number> {
    const retiring = this.live().filter((row) => row.sourceId === sourceId);
    for (const row of retiring) Object.assign(row, { retiredAt: now, updatedAt: now });
    return retiring.length;
  }

  private live(): SourceToolProps[] {
    return [...this.rows.values()].filter((row) => row.retiredAt === null);
  }
}
