import { envReferencePolicy } from '../../../config/env-reference-policy.js';
import { ProcessHostEnvironment } from '../../../config/host-environment.js';
import type { HostEnvironment } from '../domain/ports.js';

/** Toolplane's environment as `vars` (changed in place, read at each use), with the policy of a default configuration. */
export function hostEnvironment(vars: Record<string, string> = {}, allowed: readonly string[] = []): HostEnvironment {
  return new ProcessHostEnvironment(envReferencePolicy(allowed), vars);
}
