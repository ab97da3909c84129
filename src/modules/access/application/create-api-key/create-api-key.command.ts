export interface CreateApiKeyInput {
  name: string;
  role: string;
  owner?: string | null;
  /** ISO 8601; absent or null: the key does not expire. */
  expiresAt?: string | null;
  /** Source name patterns (`*` wildcard) the key may see and call; absent or null: any. */
  allowedSources?: unknown;
  /** Qualified tool name patterns (`*` wildcard); absent or null: any. */
  allowedTools?: unknown;
  /** Calls per minute; absent or null: the default. */
  rateLimitPerMinute?: unknown;
}

export class CreateApiKeyCommand {
  constructor(
    readonly input: CreateApiKeyInput,
    readonly actor: string,
  ) {}
}
