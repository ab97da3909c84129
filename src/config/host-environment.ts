import type { EnvReferencePolicy } from './env-reference-policy.js';

/**
 * `${env:NAME}` lookups, read at use so a rotated variable takes effect on the next connection
 * (the sources module's HostEnvironment port; config is the only reader of process.env).
 */
export class ProcessHostEnvironment implements EnvReferencePolicy {
  constructor(
    private readonly policy: EnvReferencePolicy,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  get(name: string): string | undefined {
    return this.env[name];
  }

  refusal(name: string): string | undefined {
    return this.policy.refusal(name);
  }
}

/**
 * Toolplane's own environment, for what it hands on to the processes it starts: the embedded
 * PostgreSQL's PATH and TZ, a plugin's allowlisted PATH, HOME, LANG… (see buildChildEnvironment).
 * Settings are read from it by loadConfig alone.
 */
export function processEnvironment(): NodeJS.ProcessEnv {
  return process.env;
}
