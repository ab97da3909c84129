import { Inject, Injectable } from '@nestjs/common';
import { decideTool } from '../../../../access/domain/tool-scope.js';
import { whyUnusable } from '../../../../catalog/domain/tool-usability.js';
import { RateLimits } from '../../rate-limits.js';
import type { Call } from '../call.js';
import { refuse } from '../outcome.js';
import type { StageVerdict } from './call-stage.js';

/**
 * Whether this caller may call this tool now, first reason first: its scope allows the tool
 * (TOOL_NOT_ALLOWED, naming the rule; also when the channel already refused it the tool's source),
 * its rate budgets and the tool's have a token left (RATE_LIMITED, with the budget and when to try
 * again), and the tool can be used at all (whyUnusable: TOOL_DEPRECATED, TOOL_PENDING_REVIEW,
 * TOOL_REJECTED, SOURCE_DISABLED, TOOL_DISABLED, TOOL_UNUSABLE, READ_ONLY_SOURCE). A held call run
 * again after its decision took its token when it was first admitted: it is not charged again,
 * and still refused for any other reason (a tool disabled or a scope narrowed meanwhile).
 */
@Injectable()
export class AdmitStage {
  constructor(@Inject(RateLimits) private readonly rateLimits: RateLimits) {}

  async run(call: Call): Promise<StageVerdict> {
    const { tool, source } = call.route!;
    const { input } = call;
    const decision = input.sourceRefusal !== undefined ? { allowed: false, rule: input.sourceRefusal } : decideTool(input.scope, { qualifiedName: tool.qualifiedName, sourceName: source.name, ...(input.group !== undefined ? { group: input.group } : {}) });
    if (!decision.allowed) {
      return refuse('rejected', 'TOOL_NOT_ALLOWED', `This key may not call ${tool.qualifiedName}.`, false, [{ path: 'qualifiedName', message: decision.rule }]);
    }
    const limited = input.approval !== undefined ? undefined : await this.rateLimits.admit(call.command.caller.principalId, input.rateLimitPerMinute, tool.qualifiedName, source.rateLimitPerMinute);
    if (limited) {
      const { scope, limitPerMinute, retryAfterMs } = limited;
      const whose = scope === 'principal' ? 'This caller' : tool.qualifiedName;
      return refuse(
        'rejected',
        'RATE_LIMITED',
        `${whose} is over its rate limit of ${limitPerMinute} calls a minute.`,
        true,
        [{ path: scope === 'principal' ? 'principal' : 'source.rateLimitPerMinute', message: `at most ${limitPerMinute} calls a minute` }],
        { retryAfterMs, rateLimit: { scope, limitPerMinute } },
      );
    }
    // The facts by name: spreading the tool to add its source took V8's slow path (about 1 µs a call).
    const { qualifiedName, status, enabled, unusableReason, reviewState, annotations } = tool;
    const unusable = whyUnusable({ qualifiedName, status, enabled, unusableReason, reviewState, annotations, source });
    return unusable && refuse('rejected', unusable.code, unusable.message);
  }
}
