import type { ApiKeySpecInput } from '../api-key-spec.js';

export interface CreateApiKeyInput extends ApiKeySpecInput {
  name: string;
  role: string;
}

export class CreateApiKeyCommand {
  constructor(
    readonly input: CreateApiKeyInput,
    readonly actor: string,
    /**
     * The key itself when it is given rather than made here (a configuration file's `key:`
     * reference, already resolved and checked against API_KEY_FORMAT); never shown back.
     */
    readonly presetKey?: string,
  ) {}
}
