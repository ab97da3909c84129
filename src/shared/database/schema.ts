import { InitialSchema1763800000000 } from '../../../migrations/1763800000000-initial-schema.js';
import { Executions1763900000000 } from '../../../migrations/1763900000000-executions.js';
import { CatalogSearch1795328440691 } from '../../../migrations/1795328440691-catalog-search.js';
import { CatalogNameSearch1795400000000 } from '../../../migrations/1795400000000-catalog-name-search.js';
import { SourceSandbox1795900000000 } from '../../../migrations/1795900000000-source-sandbox.js';
import { ToolUnusableReason1796000000000 } from '../../../migrations/1796000000000-tool-unusable-reason.js';
import { ExecutionStarted1796100000000 } from '../../../migrations/1796100000000-execution-started.js';
import { ApiKeys1796200000000 } from '../../../migrations/1796200000000-api-keys.js';
import { ApiKeyScope1796300000000 } from '../../../migrations/1796300000000-api-key-scope.js';
import { AuditChain1796400000000 } from '../../../migrations/1796400000000-audit-chain.js';
import { RateLimits1796500000000 } from '../../../migrations/1796500000000-rate-limits.js';
import { SharedRateLimits1796900000000 } from '../../../migrations/1796900000000-shared-rate-limits.js';
import { AuditRequest1796600000000 } from '../../../migrations/1796600000000-audit-request.js';
import { ToolDefinitionAsDeclared1796700000000 } from '../../../migrations/1796700000000-tool-definition-as-declared.js';
import { ExecutionChain1796800000000 } from '../../../migrations/1796800000000-execution-chain.js';
import { ExecutionRetention1797000000000 } from '../../../migrations/1797000000000-execution-retention.js';
import { ExecutionTraceId1797100000000 } from '../../../migrations/1797100000000-execution-trace-id.js';
import { ExecutionIndexesAscending1797200000000 } from '../../../migrations/1797200000000-execution-indexes-ascending.js';
import { ToolListPosition1797300000000 } from '../../../migrations/1797300000000-tool-list-position.js';
import { ToolGroups1797500000000 } from '../../../migrations/1797500000000-tool-groups.js';
import { ApiKeyGroups1797600000000 } from '../../../migrations/1797600000000-api-key-groups.js';
import { ExecutionInterceptors1797710000000 } from '../../../migrations/1797710000000-execution-interceptors.js';
import { ExecutionTasks1797720000000 } from '../../../migrations/1797720000000-execution-tasks.js';
import { Approvals1797730000000 } from '../../../migrations/1797730000000-approvals.js';
import { DefinitionPinning1797400000000 } from '../../../migrations/1797400000000-definition-pinning.js';
import { Interceptors1797700000000 } from '../../../migrations/1797700000000-interceptors.js';

/** Every migration, in order: the schema changes only through them. */
export const MIGRATIONS = [InitialSchema1763800000000, Executions1763900000000, CatalogSearch1795328440691, CatalogNameSearch1795400000000, SourceSandbox1795900000000, ToolUnusableReason1796000000000, ExecutionStarted1796100000000, ApiKeys1796200000000, ApiKeyScope1796300000000, AuditChain1796400000000, RateLimits1796500000000, AuditRequest1796600000000, ToolDefinitionAsDeclared1796700000000, ExecutionChain1796800000000, SharedRateLimits1796900000000, ExecutionRetention1797000000000, ExecutionTraceId1797100000000, ExecutionIndexesAscending1797200000000, ToolListPosition1797300000000, DefinitionPinning1797400000000, ToolGroups1797500000000, ApiKeyGroups1797600000000, Interceptors1797700000000, ExecutionInterceptors1797710000000, ExecutionTasks1797720000000, Approvals1797730000000];
