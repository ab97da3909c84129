import type { ScannedTool } from './definition-scan/index.js';
import type { SourceTool } from './source-tool.js';

export abstract class SourceToolRepository {
  /** The live (not retired) tools of a source, locked for the current transaction. */
  abstract forSource(sourceId: string): Promise<SourceTool[]>;
  /** Which of `names` live tools of other sources hold. */
  abstract takenNames(exceptSourceId: string, names: readonly string[]): Promise<Set<string>>;
  /** A live tool by id. */
  abstract findLive(id: string, options?: { lock?: boolean }): Promise<SourceTool | undefined>;
  abstract findLiveByQualifiedName(qualifiedName: string, options?: { lock?: boolean }): Promise<SourceTool | undefined>;
  abstract saveAll(tools: SourceTool[]): Promise<void>;
  /** Stores only when these tools were last seen (`now`): they were listed again exactly as stored. */
  abstract markSeen(tools: SourceTool[], now: Date): Promise<void>;
  /** The active tools of every other live source, as the definition scan compares a definition with them. */
  abstract scanPeers(exceptSourceId: string): Promise<ScannedTool[]>;
  abstract retireAll(sourceId: string, now: Date): Promise<number>;
}
