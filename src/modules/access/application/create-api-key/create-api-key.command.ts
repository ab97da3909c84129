export interface CreateApiKeyInput {
  name: string;
  role: string;
  owner?: string | null;
  /** ISO 8601; absent or null: the key does not expire. */
  expiresAt?: string | null;
}

export class CreateApiKeyCommand {
  constructor(
    readonly input: CreateApiKeyInput,
    readonly actor: string,
  ) {}
}
