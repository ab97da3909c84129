import type { SourceTool } from './source-tool.js';

export abstract class SourceToolRepository {
  /** The live (not retired) tools of a source, locked for the current transaction. */
  abstract forSource(sourceId: string): Promise<SourceTool[]>;
  /** Which of `names` live tools of other sources hold. */
  abstract takenNames(exceptSourceId: string, names: readonly string[]): Promise<Set<string>>;
  abstract findLiveByQualifiedName(qualifiedName: string, options?: { lock?: boolean }): Promise<SourceTool | undefined>;
  abstract saveAll(tools: SourceTool[]): Promise<void>;
  /** Stores only when these tools were last seen (`now`): they were listed again exactly as stored. */
  abstract markSeen(tools: SourceTool[], now: Date): Promise<void>;
  abstract retireAll(sourceId: string, now: Date): Promise<number>;
}
