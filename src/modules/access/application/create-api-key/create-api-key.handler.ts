import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProblemList } from '../../../../shared/domain-error.js';
import { Clock, IdGenerator, UnitOfWork } from '../../../../shared/unit-of-work.js';
import { AuditLog } from '../../../audit/domain/audit-event.js';
import { API_KEY_NAME_MAX, API_KEY_OWNER_MAX, ApiKeyRepository, type ApiKey } from '../../domain/api-key.js';
import { isRole, ROLES } from '../../domain/permissions.js';
import { MAX_SCOPE_PATTERNS, SCOPE_PATTERN } from '../../domain/tool-scope.js';
import { ApiKeySecrets } from '../../domain/api-key-secrets.port.js';
import { viewOf, type ApiKeyView } from '../api-key-view.js';
import { CreateApiKeyCommand } from './create-api-key.command.js';

/** The new key's view, and the key itself: shown this once, never stored. */
export type CreatedApiKey = ApiKeyView & { key: string };

@CommandHandler(CreateApiKeyCommand)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKeyCommand, CreatedApiKey> {
  constructor(
    @Inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @Inject(ApiKeySecrets) private readonly secrets: ApiKeySecrets,
    @Inject(AuditLog) private readonly audit: AuditLog,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(IdGenerator) private readonly ids: IdGenerator,
  ) {}

  async execute({ input, actor }: CreateApiKeyCommand): Promise<CreatedApiKey> {
    const now = this.clock.now();
    const problems = new ProblemList();
    const name = input.name.trim();
    if (name.length === 0 || name.length > API_KEY_NAME_MAX || hasControlCharacters(name)) {
      problems.add('name', `must be 1 to ${API_KEY_NAME_MAX} characters, without control characters`);
    }
    if (!isRole(input.role)) problems.add('role', `must be one of ${ROLES.join(', ')}`);
    const owner = input.owner?.trim() || null;
    if (owner !== null && (owner.length > API_KEY_OWNER_MAX || hasControlCharacters(owner))) {
      problems.add('owner', `must be at most ${API_KEY_OWNER_MAX} characters, without control characters`);
    }
    let expiresAt: Date | null = null;
    if (input.expiresAt !== undefined && input.expiresAt !== null) {
      expiresAt = new Date(input.expiresAt);
      if (!/^\d{4}-\d{2}-\d{2}T/.test(input.expiresAt) || Number.isNaN(expiresAt.getTime())) problems.add('expiresAt', 'must be an ISO 8601 date-time');
      else if (expiresAt.getTime() <= now.getTime()) problems.add('expiresAt', 'must be in the future');
    }
    const sources = patternList(input.allowedSources, 'allowedSources', problems);
    const tools = patternList(input.allowedTools, 'allowedTools', problems);
    const rate = input.rateLimitPerMinute ?? null;
    if (rate !== null && (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 1 || rate > 100_000_000)) {
      problems.add('rateLimitPerMinute', 'must be an integer from 1 to 100000000, or null');
    }
    problems.throwIfAny('The API key request is invalid.');

    const secret = this.secrets.generate();
    const key: ApiKey = {
      id: this.ids.next(),
      name,
      owner,
      role: input.role as ApiKey['role'],
      prefix: secret.prefix,
      hash: secret.hash,
      createdAt: now,
      createdBy: actor,
      expiresAt,
      revokedAt: null,
      lastUsedAt: null,
      scope: { ...(sources ? { sources } : {}), ...(tools ? { tools } : {}) },
      rateLimitPerMinute: rate as number | null,
    };
    await this.uow.run(async () => {
      await this.keys.insert(key);
      await this.audit.record({
        actor,
        action: 'api-key.created',
        targetType: 'api-key',
        targetId: key.id,
        targetName: key.name,
        details: { role: key.role, owner: key.owner, prefix: key.prefix, expiresAt: key.expiresAt?.toISOString() ?? null, allowedSources: sources ?? null, allowedTools: tools ?? null, rateLimitPerMinute: rate },
      });
    });
    return { ...viewOf(key, now), key: secret.key };
  }
}

/** A list of name patterns, or undefined for "not restricted" (absent or null). */
function patternList(value: unknown, path: string, problems: ProblemList): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > MAX_SCOPE_PATTERNS) {
    problems.add(path, `must be a list of at most ${MAX_SCOPE_PATTERNS} name patterns, or null`);
    return undefined;
  }
  value.forEach((pattern, i) => {
    if (typeof pattern !== 'string' || !SCOPE_PATTERN.test(pattern)) problems.add(`${path}[${i}]`, 'must be 1 to 200 letters, digits, _ . - or * (any run of characters)');
  });
  return [...new Set(value.filter((pattern): pattern is string => typeof pattern === 'string'))];
}

function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
