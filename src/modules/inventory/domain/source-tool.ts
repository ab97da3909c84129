import type { DefinitionFinding } from './definition-scan/index.js';
import type { ToolReviewState } from './pinning/pinning.js';
import { declaredHash, declaredTool, definitionHash, ToolDefinition, type ToolStatus } from './tool-definition.js';

export type { ToolStatus };

export interface SourceToolProps extends ToolDefinition {
  id: string;
  sourceId: string;
  qualifiedName: string;
  definitionHash: string;
  /** Over the definition as declared, key order included (see declaredHash). */
  declaredHash: string;
  status: ToolStatus;
  enabled: boolean;
  /** Whether its current definition is served (approved) or held (pending_review, rejected); see pinning. */
  reviewState: ToolReviewState;
  /** The last definition approved (by a reviewer, or admitted by the source's pinning mode), and its hash; null before any. */
  approvedHash: string | null;
  approvedDefinition: Record<string, unknown> | null;
  /** What the definition scan found in the current definition when it was new or changed. */
  findings: DefinitionFinding[];
  /** Where the upstream listed it in its last tools/list (0 first); null for a tool not listed since this was kept. */
  listPosition: number | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
  updatedAt: Date;
  /** Set when the source is removed: the row stays for history, out of the catalog. */
  retiredAt: Date | null;
}

/** One discovered tool of one source. */
export class SourceTool {
  private constructor(private props: SourceToolProps) {}

  static restore(props: SourceToolProps): SourceTool {
    return new SourceTool({ ...props });
  }

  static discover(id: string, sourceId: string, qualifiedName: string, definition: ToolDefinition, now: Date, listPosition: number): SourceTool {
    return new SourceTool({
      ...pickDefinition(definition),
      id,
      sourceId,
      qualifiedName,
      definitionHash: definitionHash(definition),
      declaredHash: declaredHash(definition),
      status: 'active',
      enabled: true,
      // Admitted (or held) by the source's pinning right after discovery.
      reviewState: 'pending_review',
      approvedHash: null,
      approvedDefinition: null,
      findings: [],
      listPosition,
      firstSeenAt: now,
      lastSeenAt: now,
      updatedAt: now,
      retiredAt: null,
    });
  }

  get name(): string {
    return this.props.name;
  }
  get status(): ToolStatus {
    return this.props.status;
  }
  get definitionHash(): string {
    return this.props.definitionHash;
  }
  get enabled(): boolean {
    return this.props.enabled;
  }
  get reviewState(): ToolReviewState {
    return this.props.reviewState;
  }
  get approvedHash(): string | null {
    return this.props.approvedHash;
  }
  /** The definition as declared, as it is served when approved. */
  get declared(): Record<string, unknown> {
    return declaredTool(this.props);
  }

  snapshot(): Readonly<SourceToolProps> {
    return this.props;
  }

  /**
   * Seen again upstream, at `listPosition` of its listing; answers how this sighting changes the
   * inventory. A definition that differs only in its key order, or a tool listed at another place,
   * is not a change, but is kept as now listed, so agents see the upstream's order.
   */
  observe(definition: ToolDefinition, now: Date, listPosition: number): 'unchanged' | 'changed' | 'restored' {
    const hash = definitionHash(definition);
    const wasDeprecated = this.props.status === 'deprecated';
    const changed = hash !== this.props.definitionHash;
    const declared = declaredHash(definition);
    const reordered = !changed && declared !== this.props.declaredHash;
    this.props = {
      ...this.props,
      ...(changed || reordered ? { ...pickDefinition(definition), declaredHash: declared } : {}),
      ...(changed ? { definitionHash: hash, updatedAt: now } : {}),
      status: 'active',
      listPosition,
      lastSeenAt: now,
    };
    if (wasDeprecated) {
      this.props.updatedAt = now;
      return 'restored';
    }
    return changed ? 'changed' : 'unchanged';
  }

  /** Gone upstream: kept, but out of the catalog until it comes back. */
  deprecate(now: Date): boolean {
    if (this.props.status === 'deprecated') return false;
    this.props = { ...this.props, status: 'deprecated', updatedAt: now };
    return true;
  }

  /** What the definition scan found in the current definition. */
  recordFindings(findings: DefinitionFinding[]): void {
    this.props = { ...this.props, findings };
  }

  /** The current definition becomes the approved one, and is served. */
  approveCurrent(now: Date): void {
    this.props = { ...this.props, reviewState: 'approved', approvedHash: this.props.definitionHash, approvedDefinition: declaredTool(this.props), updatedAt: now };
  }

  /** The current definition waits for a reviewer (or, rejected, for its upstream to change it again); not served meanwhile. */
  hold(state: 'pending_review' | 'rejected', now: Date): void {
    this.props = { ...this.props, reviewState: state, updatedAt: now };
  }

  setEnabled(enabled: boolean, now: Date): boolean {
    if (this.props.enabled === enabled) return false;
    this.props = { ...this.props, enabled, updatedAt: now };
    return true;
  }

  retire(now: Date): void {
    this.props = { ...this.props, retiredAt: now, updatedAt: now };
  }
}

function pickDefinition(d: ToolDefinition): ToolDefinition {
  return {
    name: d.name,
    title: d.title,
    description: d.description,
    inputSchema: d.inputSchema,
    outputSchema: d.outputSchema,
    annotations: d.annotations,
    declared: declaredTool(d),
    unusableReason: d.unusableReason,
  };
}
