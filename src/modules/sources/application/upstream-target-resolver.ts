import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../../shared/domain-error.js';
import type { KnownSecret } from '../../../shared/secret-scrubber.js';
import { SecretRepository } from '../../secrets/domain/secret.js';
import { HostEnvironment } from '../domain/ports.js';
import type { SourceProps } from '../domain/source.js';
import type { UpstreamTarget } from '../domain/upstream.js';
import { parseTemplate, referenceText, renderTemplate } from '../domain/value-template.js';
import { withDeclaredDefaults } from '../domain/variable-policy.js';

type ConnectionProps = Pick<
  SourceProps,
  'id' | 'name' | 'transport' | 'lifecycle' | 'pluginDir' | 'command' | 'args' | 'cwd' | 'sandbox' | 'url' | 'env' | 'headers' | 'manifest' | 'upstream'
> & Partial<Pick<SourceProps, 'upstreamAuth'>>;

/**
 * Turns a source's stored templates into the values a connection uses, right before use.
 * Resolved values live only in memory, for the connection's sake. `${user-secret:NAME}` references
 * stay as written: they belong to each caller, and the credential step renders them per call.
 */
@Injectable()
export class UpstreamTargetResolver {
  constructor(
    @Inject(SecretRepository) private readonly secrets: SecretRepository,
    @Inject(HostEnvironment) private readonly host: HostEnvironment,
  ) {}

  async resolve(source: ConnectionProps): Promise<UpstreamTarget> {
    const secrets: KnownSecret[] = [];
    const env = await this.renderAll(source.env, 'env', secrets);
    const headers = await this.renderAll(source.headers, 'headers', secrets);
    for (const [name, value] of Object.entries(headers)) secrets.push({ name: `header ${name}`, value });
    for (const declaration of source.manifest?.env ?? []) {
      const value = env[declaration.name];
      if (declaration.isSecret && value !== undefined) secrets.push({ name: declaration.name, value });
    }
    return {
      sourceId: source.id,
      sourceName: source.name,
      transport: source.transport,
      lifecycle: source.lifecycle,
      command: source.command ?? undefined,
      args: source.args,
      cwd: source.cwd ?? undefined,
      pluginDir: source.pluginDir ?? undefined,
      sandbox: source.sandbox,
      // Declared defaults are literal values from the manifest, not templates.
      env: { ...withDeclaredDefaults({}, source.manifest?.env ?? []), ...env },
      url: source.url ?? undefined,
      headers,
      // Fixed from here on: scrubbers are built once per list (SecretScrubber.of).
      secrets: Object.freeze(secrets),
      era: source.upstream?.era,
      discoverResult: source.upstream?.discoverResult,
      ...(source.upstreamAuth ? { auth: source.upstreamAuth } : {}),
      poolKey: source.id,
    };
  }

  /** The value of a setting that is one `${secret:NAME}` reference (checked so when stored), e.g. a discovery token. */
  async secretValue(reference: string, field: string): Promise<string> {
    const ref = parseTemplate(reference).references[0];
    const value = ref?.kind === 'secret' ? await this.secrets.reveal(ref.name) : undefined;
    if (value === undefined) {
      throw new DomainError('invalid', 'SECRET_NOT_FOUND', `The secret referenced by ${field} no longer exists.`, [{ path: field, message: `refers to missing ${reference}` }]);
    }
    return value;
  }

  /** Renders every template; what came from a reference is added to `secrets`, under the reference's and the variable's name. */
  private async renderAll(values: Record<string, string>, field: string, secrets: KnownSecret[]): Promise<Record<string, string>> {
    const secretNames = new Set<string>();
    for (const value of Object.values(values)) {
      for (const ref of parseTemplate(value).references) if (ref.kind === 'secret') secretNames.add(ref.name);
    }
    const revealed = new Map<string, string>();
    for (const name of secretNames) {
      const value = await this.secrets.reveal(name);
      if (value === undefined) {
        throw new DomainError('invalid', 'SECRET_NOT_FOUND', `The secret "${name}" referenced by ${field} no longer exists.`, [
          { path: field, message: `refers to missing secret "${name}"` },
        ]);
      }
      revealed.set(name, value);
    }
    const result: Record<string, string> = {};
    for (const [key, template] of Object.entries(values)) {
      let referenced = false;
      result[key] = renderTemplate(template, (ref) => {
        // The caller's own value, rendered per call by the credential step (UserSecretCredentials).
        if (ref.kind === 'user-secret') return referenceText(ref);
        referenced = true;
        if (ref.kind === 'secret') {
          secrets.push({ name: ref.name, value: revealed.get(ref.name)! });
          return revealed.get(ref.name)!;
        }
        // Checked at registration too; this holds for sources stored before a variable was refused.
        const refusal = this.host.refusal(ref.name);
        if (refusal) {
          throw new DomainError('invalid', 'ENV_REFERENCE_REFUSED', `\${env:${ref.name}} referenced by ${field}.${key} is ${refusal}.`, [
            { path: `${field}.${key}`, message: `refers to \${env:${ref.name}}, ${refusal}` },
          ]);
        }
        const value = this.host.get(ref.name);
        if (value === undefined) {
          throw new DomainError('invalid', 'ENV_NOT_SET', `\${env:${ref.name}} referenced by ${field}.${key} is not set.`, [
            { path: `${field}.${key}`, message: `refers to unset \${env:${ref.name}}` },
          ]);
        }
        secrets.push({ name: `env ${ref.name}`, value });
        return value;
      });
      if (referenced) secrets.push({ name: key, value: result[key] });
    }
    return result;
  }
}
