import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { ApiKeySpecInput } from '../api-key-spec.js';

export class CreateApiKeyCommand {
  constructor(
    readonly input: ApiKeySpecInput,
    readonly actor: string,
    /**
     * The key itself when it is given rather than made here (a configuration file's `key:`
     * reference, already resolved and checked against API_KEY_FORMAT); never shown back.
     */
    readonly presetKey?: string,
    /** Problems of the request's shape (an unknown property), reported with the settings' own. */
    readonly shapeProblems: readonly ProblemDetail[] = [],
  ) {}
}
