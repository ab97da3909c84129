import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DomainError, NotFound } from '../../../../shared/domain-error.js';
import { Clock } from '../../../../shared/unit-of-work.js';
import { ApiKeyRepository, keyState, principalOf } from '../../domain/api-key.js';
import { ADMIN, may, type Principal } from '../../../../shared/principal/principal.js';
import { ScopedTools } from '../../domain/scoped-tools.port.js';
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
    @Inject(ScopedTools) private readonly tools: ScopedTools,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async execute({ principal: who, tool: qualifiedName, group }: ExplainAccessQuery): Promise<AccessExplanation> {
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
    const tool = await this.tools.find(qualifiedName);
    if (!tool) throw new NotFound('TOOL_NOT_FOUND', `No tool named "${qualifiedName.slice(0, 100)}".`);
    const answer = (allowed: boolean, rule: string): AccessExplanation => ({
      principal: {
        id: principal.id,
        name: principal.name,
        kind: principal.kind,
        roles: principal.roles,
        allowedSources: principal.scope?.sources ?? null,
        allowedTools: principal.scope?.tools ?? null,
        allowedGroups: principal.scope?.groups ?? null,
      },
      tool: tool.qualifiedName,
      group: group ?? null,
      allowed,
      rule,
    });
    if (state !== 'active') return answer(false, `key: ${state}`);
    if (!may(principal, 'tools:invoke')) return answer(false, `role: ${principal.roles.join(', ')} does not hold tools:invoke`);
    const decision = decideTool(principal.scope, { ...tool, ...(group !== undefined ? { group } : {}) });
    return answer(decision.allowed, decision.rule);
  }
}
