import type { CatalogSourceSettings } from '../../catalog/domain/catalog-snapshot.js';
import type { TaskSupport } from '../../inventory/domain/tool-definition.js';

/** Everything the pipeline needs to know about a tool and its source, read in one go. */
export interface ToolRoute {
  tool: {
    id: string;
    name: string;
    qualifiedName: string;
    definitionHash: string;
    inputSchema: Record<string, unknown>;
    outputSchema: Record<string, unknown> | null;
    annotations: Record<string, unknown> | null;
    description: string | null;
    /** Why the tool cannot be called; null when it can. */
    unusableReason: string | null;
    status: 'active' | 'deprecated';
    enabled: boolean;
    /** Whether the upstream runs it as a task: always (`required`), when asked (`optional`) or never. */
    taskSupport: TaskSupport;
    /** Held by pinning unless `approved`. */
    reviewState: 'approved' | 'pending_review' | 'rejected';
  };
  source: CatalogSourceSettings;
}
