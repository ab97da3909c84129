import type { SourceTool } from './source-tool.js';

export abstract class SourceToolRepository {
  /** The live (not retired) tools of a source, locked for the current transaction. */
  abstract forSource(sourceId: string): Promise<SourceTool[]>;
  /** Qualified names held by live tools of other sources. */
  abstract takenNames(exceptSourceId: string): Promise<Set<string>>;
  abstract findLiveByQualifiedName(qualifiedName: string, options?: { lock?: boolean }): Promise<SourceTool | undefined>;
  abstract saveAll(tools: SourceTool[]): Promise<void>;
  abstract retireAll(sourceId: string, now: Date): Promise<number>;
}
