import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../../shared/domain-error.js';
import { Clock } from '../../../../shared/unit-of-work.js';
import { GetToolQuery } from '../../../inventory/application/get-tool/get-tool.query.js';
import type { ToolView } from '../../../inventory/application/tool-view.js';
import { ApiKeyRepository, keyState, principalOf } from '../../domain/api-key.js';
import { ADMIN, may, type Principal } from '../../../../shared/principal/principal.js';
import { decideTool } from '../../domain/tool-scope.js';
import { AccessExplanation, ExplainAccessQuery } from './explain-access.query.js';
import { isUuid } from '../../../../shared/uuid.js';


/**
 * The decision a call would meet, made by the same rules in the same order as the guard and
 * ExecuteTool: the key must be active, its role must hold tools:invoke, the tool must be in its
 * scope. The tool's own state (disabled, unusable) is the tool's, not access: see GET /tools/{name}.
 */
@QueryHandler(ExplainAccessQuery)
export class ExplainAccessHandler implements IQueryHandler<ExplainAccessQuery, AccessExplanation> {
  constructor(
    @Inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @Inject(QueryBus) private readonly queries: QueryBus,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ principal: who, tool: qualifiedName }: ExplainAccessQuery): Promise<AccessExplanation> {
    let principal: Principal;
    let state: 'active' | 'revoked' | 'expired' = 'active';
    if (who === ADMIN.id) {
      principal = ADMIN;
    } else {
      const key = isUuid(who) ? await this.keys.findById(who) : undefined;
      if (!key) throw new DomainError('not_found', 'API_KEY_NOT_FOUND', 'No API key with this id (or "admin").');
      principal = principalOf(key);
      state = keyState(key, this.clock.now());
    }
    const tool: ToolView = await this.queries.execute(new GetToolQuery(qualifiedName));
    const answer = (allowed: boolean, rule: string): AccessExplanation => ({
      principal: {
        id: principal.id,
        name: principal.name,
        kind: principal.kind,
        roles: principal.roles,
        allowedSources: principal.scope?.sources ?? null,
        allowedTools: principal.scope?.tools ?? null,
      },
      tool: tool.qualifiedName,
      allowed,
      rule,
    });
    if (state !== 'active') return answer(false, `key: ${state}`);
    if (!may(principal, 'tools:invoke')) return answer(false, `role: ${principal.roles.join(', ')} does not hold tools:invoke`);
    const decision = decideTool(principal.scope, { qualifiedName: tool.qualifiedName, sourceName: tool.source.name });
    return answer(decision.allowed, decision.rule);
  }
}
