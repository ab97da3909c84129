import { Inject, Injectable } from '@nestjs/common';
import { type ProblemDetail, ProblemList } from '../../../../shared/domain-error.js';
import { API_KEY_FORMAT, API_KEY_FORMAT_HINT, type ApiKeySpecInput, changedSettings, checkApiKeySpec } from '../../../access/application/api-key-spec.js';
import { ApiKeyRepository, type ApiKey } from '../../../access/domain/api-key.js';
import { ApiKeySecrets, type ApiKeySecret } from '../../../access/domain/api-key-secrets.port.js';
import { SecretRepository } from '../../../secrets/domain/secret.js';
import { HostEnvironment } from '../../../sources/domain/ports.js';
import { parseTemplate } from '../../../sources/domain/value-template.js';
import { type PlannedChange, problemOfEntry, STORED_VALUE } from '../../domain/config-plan.js';

/** One entry of the file's `keys:`: its settings as written, the key value (a reference), and the problems of its shape. */
export interface DeclaredKey {
  spec: ApiKeySpecInput;
  /** `${secret:NAME}` or `${env:NAME}` holding the key, or `${stored}`: keep the key it has. */
  key?: unknown;
  shapeProblems: ProblemDetail[];
}

export type KeyStep =
  | { action: 'create'; spec: ApiKeySpecInput; presetKey: string }
  | { action: 'update'; id: string; spec: ApiKeySpecInput; presetKey?: string }
  | { action: 'delete'; id: string };

export interface KeyPlanResult {
  changes: PlannedChange[];
  steps: KeyStep[];
  problems: ProblemDetail[];
}

const NOTHING: KeyPlanResult = { changes: [], steps: [], problems: [] };

/**
 * Compares the keys a file declares with the active keys, matched by name. A key's secret never
 * sits in the file: `key:` is a reference to where it is kept (a stored secret, Toolplane's
 * environment), needed to create the key and, when it resolves to another key, to replace it;
 * `${stored}` keeps the key it has. With prune, active keys the file does not name are revoked,
 * but only when the file has a `keys:` list at all.
 */
@Injectable()
export class KeyPlanner {
  constructor(
    @Inject(ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @Inject(ApiKeySecrets) private readonly hashes: ApiKeySecrets,
    @Inject(SecretRepository) private readonly secrets: SecretRepository,
    @Inject(HostEnvironment) private readonly host: HostEnvironment,
  ) {}

  /** `actor`: the principal applying the file, whose own key prune must not revoke. */
  async plan(declared: readonly DeclaredKey[] | undefined, prune: boolean, now: Date, actor: string): Promise<KeyPlanResult> {
    if (declared === undefined) return NOTHING;
    const active = await this.keys.listActive(now);
    const byName = new Map<string, ApiKey[]>();
    for (const key of active) byName.set(key.name, [...(byName.get(key.name) ?? []), key]);
    const problems = new ProblemList();
    const changes: PlannedChange[] = [];
    const steps: KeyStep[] = [];

    for (const [index, entry] of declared.entries()) {
      const own = new ProblemList();
      own.addAll(entry.shapeProblems);
      const planned = await this.planEntry(entry, byName, now, own);
      problems.addAll(own.all.map((p) => problemOfEntry('keys', index, p)));
      if (!planned) continue;
      changes.push(planned.change);
      if (planned.step) steps.push(planned.step);
    }

    if (prune) {
      const declaredNames = new Set(declared.map((d) => (typeof d.spec.name === 'string' ? d.spec.name.trim() : '')));
      for (const key of active) {
        if (declaredNames.has(key.name)) continue;
        if (key.id === actor) {
          problems.add('keys', `prune would revoke "${key.name}" (${key.prefix}…), the key this request is made with: declare it, or apply without prune`);
          continue;
        }
        changes.push({ kind: 'key', name: key.name, action: 'delete', fields: [] });
        steps.push({ action: 'delete', id: key.id });
      }
    }
    return { changes, steps, problems: [...problems.all] };
  }

  /** What one declared key comes to; undefined when it has a problem (added to `problems`). */
  private async planEntry(
    { spec, key, shapeProblems }: DeclaredKey,
    byName: ReadonlyMap<string, ApiKey[]>,
    now: Date,
    problems: ProblemList,
  ): Promise<{ change: PlannedChange; step?: KeyStep } | undefined> {
    // Not a mapping at all: its settings cannot be read.
    if (shapeProblems.some((p) => p.path === 'body')) return undefined;
    const settings = checkApiKeySpec(spec, now, problems, 'allow');
    const matches = byName.get(settings.name) ?? [];
    if (matches.length > 1) {
      problems.add('name', `${matches.length} active keys are named "${settings.name}" (prefixes ${matches.map((k) => k.prefix).join(', ')}): revoke all but one, or declare another name`);
      return undefined;
    }
    const current = matches[0];
    const expired = settings.expiresAt !== null && settings.expiresAt.getTime() <= now.getTime();
    // Declared as expired by now: there is nothing to make.
    if (!current && expired) return problems.isEmpty ? { change: { kind: 'key', name: settings.name, action: 'unchanged', fields: [] } } : undefined;
    const given = await this.keyValue(key, settings.name, current, problems);
    if (!problems.isEmpty) return undefined;

    if (!current) return { change: { kind: 'key', name: settings.name, action: 'create', fields: [] }, step: { action: 'create', spec, presetKey: given!.key } };
    const fields = changedSettings(current, settings);
    const replaced = given !== undefined && given.hash !== current.hash;
    if (replaced) fields.push('key');
    if (fields.length === 0) return { change: { kind: 'key', name: settings.name, action: 'unchanged', fields } };
    return { change: { kind: 'key', name: settings.name, action: 'update', fields }, step: { action: 'update', id: current.id, spec, ...(replaced ? { presetKey: given.key } : {}) } };
  }

  /**
   * The key the entry's `key:` resolves to, with what is stored of it; undefined when it keeps the
   * key it has (absent, or `${stored}`). Problems name the reference, never the value.
   */
  private async keyValue(reference: unknown, name: string, current: ApiKey | undefined, problems: ProblemList): Promise<ApiKeySecret | undefined> {
    if (reference === undefined || reference === null || reference === STORED_VALUE) {
      if (!current) {
        const given = reference === STORED_VALUE ? `is "${STORED_VALUE}" (keep the stored key), but no active key is named "${name}"` : 'is required to create the key';
        problems.add('key', `${given}: give a \${secret:NAME} or \${env:NAME} reference holding it (${API_KEY_FORMAT_HINT})`);
      }
      return undefined;
    }
    const parsed = typeof reference === 'string' ? parseTemplate(reference) : undefined;
    if (!parsed || parsed.problems.length > 0 || parsed.hasLiteralText || parsed.references.length !== 1 || parsed.references[0]!.kind === 'user-secret') {
      problems.add('key', 'must be one ${secret:NAME} or ${env:NAME} reference: a key written in the file would be in every copy of it');
      return undefined;
    }
    const ref = parsed.references[0]!;
    const value = ref.kind === 'secret' ? await this.secrets.reveal(ref.name) : this.host.get(ref.name);
    if (value === undefined) {
      problems.add('key', ref.kind === 'secret' ? `refers to missing secret "${ref.name}"` : `refers to unset \${env:${ref.name}}`);
      return undefined;
    }
    if (!API_KEY_FORMAT.test(value)) {
      problems.add('key', `\${${ref.kind}:${ref.name}} does not hold a Toolplane key: it must be ${API_KEY_FORMAT_HINT}`);
      return undefined;
    }
    const secret = this.hashes.of(value);
    const holder = await this.keys.findByHash(secret.hash);
    if (holder && holder.id !== current?.id) {
      problems.add('key', `\${${ref.kind}:${ref.name}} holds the key of API key "${holder.name}" (${holder.prefix}…); each key opens one API key, revoked ones included`);
      return undefined;
    }
    return secret;
  }
}
