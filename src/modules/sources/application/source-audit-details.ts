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
