export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The setting naming variables a source may refer to although Toolplane reads them itself. */
export const ENV_REFERENCES_ALLOW_SETTING = 'TOOLPLANE_ENV_REFERENCES_ALLOW';

/**
 * Which variables of Toolplane's environment a source may refer to as `${env:NAME}`: not those
 * Toolplane, its runtime or its libraries read, since they hold its configuration and credentials
 * (the database's, the trace exporter's headers, proxies with their passwords). Names are compared
 * in any case: on Windows `pgpassword` is PGPASSWORD.
 */
export interface EnvReferencePolicy {
  /** Why a source may not refer to `${env:name}`, or undefined when it may. */
  refusal(name: string): string | undefined;
}

/** Toolplane's own settings and keys: never passed to a source, whatever the allow list says. */
export function isToolplaneOwnVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return upper === 'DATABASE_URL' || upper.startsWith('TOOLPLANE_');
}

/** Read by Toolplane's settings (HOST, PORT, PATH, LOG_LEVEL), by Nest, and by Node.js and undici for TLS and proxies. */
const READ_BY_TOOLPLANE = new Set(['HOST', 'PORT', 'PATH', 'LOG_LEVEL', 'NEST_DEBUG', 'NO_COLOR', 'FORCE_COLOR', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY', 'SSL_CERT_FILE', 'SSL_CERT_DIR']);
/** PostgreSQL clients (libpq, pg), OpenTelemetry, Node.js and libuv, undici, OpenSSL. */
const READ_BY_TOOLPLANE_PREFIXES = ['PG', 'OTEL_', 'NODE_', 'UV_', 'UNDICI_', 'OPENSSL_'];

function isReadByToolplane(name: string): boolean {
  const upper = name.toUpperCase();
  return READ_BY_TOOLPLANE.has(upper) || READ_BY_TOOLPLANE_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

/** The policy with `allowed` (names exactly as written) let through, Toolplane's own settings excepted. */
export function envReferencePolicy(allowed: readonly string[]): EnvReferencePolicy {
  const allowedNames = new Set(allowed);
  return {
    refusal(name) {
      if (isToolplaneOwnVariable(name)) return "Toolplane's own configuration, which is never passed to a source";
      if (isReadByToolplane(name) && !allowedNames.has(name)) {
        return `a variable Toolplane itself reads (its database, telemetry, Node.js or proxy settings), passed to a source only when ${ENV_REFERENCES_ALLOW_SETTING} names it`;
      }
      return undefined;
    },
  };
}

/** Reads the allow list: comma-separated variable names, none of Toolplane's own. */
export function envReferenceAllowList(raw: string | undefined): { names: string[]; problems: string[] } {
  const names: string[] = [];
  const problems: string[] = [];
  for (const entry of (raw ?? '').split(',').map((item) => item.trim())) {
    if (entry === '') continue;
    if (!ENV_NAME_PATTERN.test(entry)) problems.push(`${ENV_REFERENCES_ALLOW_SETTING}: "${entry}" is not a variable name (letters, digits and _, not starting with a digit)`);
    else if (isToolplaneOwnVariable(entry)) problems.push(`${ENV_REFERENCES_ALLOW_SETTING}: ${entry} is Toolplane's own configuration and is never passed to a source`);
    else names.push(entry);
  }
  return { names, problems };
}
