import { useResource } from '../hooks.js';
import type { Health, Schemas } from '../types.js';

/** What /health/ready says of the plugin sandbox to a caller with ops:read (openapi.yaml names these fields in words only). */
type SandboxReport = Schemas['HealthIndicatorDto'] & { enabled?: boolean; reason?: string; warning?: string; fix?: string };

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A warning on every page while stdio plugins run without a sandbox (shown to roles with ops:read). */
export function SandboxBanner() {
  const readiness = useResource<Health>('/health/ready');
  const sandbox: SandboxReport | undefined = readiness.data?.details?.sandbox;
  if (sandbox?.enabled !== false) return null;
  return (
    <div class="banner" role="alert">
      <strong>Plugins run without a sandbox</strong>
      {sandbox.reason ? ` (${sandbox.reason})` : ''}. {sandbox.warning ? `${sentence(sandbox.warning)}.` : ''}
      {sandbox.fix && <p>To fix: {sandbox.fix}.</p>}
    </div>
  );
}
