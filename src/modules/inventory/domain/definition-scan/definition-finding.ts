export type FindingSeverity = 'low' | 'medium' | 'high';

/** One sign of poisoning in one definition. */
export interface DefinitionFinding {
  /** A stable rule id, kebab-case: `invisible-unicode`, `instruction-to-model`, `secret-path`, … */
  rule: string;
  severity: FindingSeverity;
  /**
   * Where in the definition: `name`, `title`, `description`, `inputSchema.properties.x.description`,
   * `annotations.title`… — member names and array indexes joined by dots (a `~` in a member name is
   * written `~0`, a `.` `~1`, as JSON Pointer escapes `/`).
   */
  path: string;
  /** At most EXCERPT_MAX_CHARS characters around the match, invisible characters written as `\u{E0041}`. */
  excerpt: string;
  /** One sentence for a reviewer. */
  message: string;
}

/** What the scan reads of a tool: the definition as its upstream declared it. */
export interface ScannedTool {
  sourceName: string;
  name: string;
  title?: string | null;
  description?: string | null;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: Record<string, unknown> | null;
}

const RANK: Record<FindingSeverity, number> = { low: 1, medium: 2, high: 3 };

/** The most severe of the findings; undefined when there are none. */
export function highestSeverity(findings: readonly DefinitionFinding[]): FindingSeverity | undefined {
  let highest: FindingSeverity | undefined;
  for (const { severity } of findings) if (highest === undefined || RANK[severity] > RANK[highest]) highest = severity;
  return highest;
}
