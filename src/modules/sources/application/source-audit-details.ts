import { maskUrlCredentials } from '../../../shared/url-credentials.js';

interface Launch {
  transport: string;
  command: string | null;
  args: string[];
  url: string | null;
  pluginDir?: string | null;
}

/**
 * What an audit event says about a source's connection: the command with its arguments as
 * written (secret references such as `${secret:NAME}` stay references; values are never
 * resolved here), the URL with credential-looking query values masked, the plugin directory.
 */
export function sourceAuditDetails(launch: Launch | null): Record<string, unknown> {
  if (!launch) return {};
  return {
    transport: launch.transport,
    command: launch.command,
    args: launch.args,
    url: maskUrlCredentials(launch.url),
    pluginDir: launch.pluginDir ?? null,
  };
}

const SECRET_REFERENCE = /\$\{(?:secret|user-secret):[^}]+\}/g;

/**
 * The settings an update changed, as they were and as they are, for the audit event: env and
 * header values keep their `${secret:NAME}` references and nothing else of a value (a literal
 * may be a credential typed in place), URLs have credential-looking query values masked.
 */
export function settingsChange(before: Record<string, unknown>, after: Record<string, unknown>, changed: readonly string[]): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const describe = (key: string, value: unknown): unknown => {
    if ((key === 'env' || key === 'headers') && value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, template]) => [name, maskedTemplate(template)]));
    }
    if (key === 'url' && typeof value === 'string') return maskUrlCredentials(value);
    return value;
  };
  return {
    before: Object.fromEntries(changed.map((key) => [key, describe(key, before[key])])),
    after: Object.fromEntries(changed.map((key) => [key, describe(key, after[key])])),
  };
}

/** `Bearer ${secret:TOKEN}` (or `${user-secret:TOKEN}`) stays; any literal text is replaced by `***`. */
function maskedTemplate(template: unknown): string {
  if (typeof template !== 'string') return '***';
  const references = template.match(SECRET_REFERENCE) ?? [];
  const literal = template.replace(SECRET_REFERENCE, '');
  return [...(literal.length > 0 ? ['***'] : []), ...references].join(' ');
}
