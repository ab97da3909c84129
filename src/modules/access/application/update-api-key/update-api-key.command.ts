import { Command } from '@nestjs/cqrs';
import type { ApiKeyView } from '../api-key-view.js';
import type { ApiKeySpecInput } from '../api-key-spec.js';

/**
 * Gives an active key the settings declared for it (the whole of them: what is left out is the
 * default) and, when `presetKey` is given and differs, that key value in place of its own.
 */
export class UpdateApiKeyCommand extends Command<ApiKeyView> {
  constructor(
    readonly id: string,
    readonly input: ApiKeySpecInput,
    readonly actor: string,
    readonly presetKey?: string,
  ) {
    super();
  }
}
