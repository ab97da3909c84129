import type { EnvReferencePolicy } from '../modules/sources/domain/env-reference-policy.js';
import { HostEnvironment } from '../modules/sources/domain/ports.js';

/** `${env:NAME}` lookups, read at use so a rotated variable takes effect on the next connection. */
export class ProcessHostEnvironment extends HostEnvironment {
  constructor(
    private readonly policy: EnvReferencePolicy,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    super();
  }

  get(name: string): string | undefined {
    return this.env[name];
  }

  refusal(name: string): string | undefined {
    return this.policy.refusal(name);
  }
}
