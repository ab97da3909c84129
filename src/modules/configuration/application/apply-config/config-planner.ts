import { Inject, Injectable } from '@nestjs/common';
import { type ProblemDetail, ProblemList } from '../../../../shared/domain-error.js';
import { SourceSpecChecker, type CheckedConnection } from '../../../sources/application/source-spec-checker.js';
import { settingsOf, type SourceChangesInput, type SourceSettings, type SourceSpecInput } from '../../../sources/application/source-spec.js';
import type { SourceProps } from '../../../sources/domain/source.js';
import { SourceRepository } from '../../../sources/domain/source.repository.js';
import { type PlannedChange, problemOfSource, sameSetting, STORED_VALUE } from '../../domain/config-plan.js';

/** One entry of the file's `sources:`, shape-checked, with the problems its shape had. */
export interface DeclaredSource {
  spec: SourceSpecInput;
  shapeProblems: ProblemDetail[];
}

export type PlanStep =
  | { action: 'create'; spec: SourceSpecInput }
  | { action: 'update'; name: string; changes: SourceChangesInput }
  | { action: 'delete'; name: string };

export interface ConfigPlanResult {
  changes: PlannedChange[];
  steps: PlanStep[];
  problems: ProblemDetail[];
}

const SETTING_FIELDS = ['description', 'readOnly', 'timeoutMs', 'maxConcurrency', 'rateLimitPerMinute', 'refreshIntervalSeconds', 'circuitBreaker', 'pinning', 'enabled'] as const;
const CONNECTION_FIELDS = ['lifecycle', 'pluginDir', 'manifest', 'command', 'commandFromManifest', 'args', 'cwd', 'sandbox', 'url', 'env', 'headers', 'upstreamAuth'] as const;
/** What a user reads for a stored field that follows from another. */
const REPORTED_AS: Partial<Record<string, string>> = { commandFromManifest: 'command' };

/**
 * Compares declared sources with the live ones. Each declared source goes through the same
 * checks as a registration (manifest, command, URL, references), so a plan that has no problems
 * applies without any; the file is the whole truth, so a setting it leaves out means the default.
 */
@Injectable()
export class ConfigPlanner {
  constructor(
    @Inject(SourceSpecChecker) private readonly checker: SourceSpecChecker,
    @Inject(SourceRepository) private readonly sources: SourceRepository,
  ) {}

  async plan(declared: readonly DeclaredSource[], prune: boolean): Promise<ConfigPlanResult> {
    const live = new Map((await this.sources.listLive()).map((source) => [source.name, source]));
    const problems = new ProblemList();
    const changes: PlannedChange[] = [];
    const steps: PlanStep[] = [];

    for (const [index, { spec, shapeProblems }] of declared.entries()) {
      const own = new ProblemList();
      own.addAll(shapeProblems);
      const current = live.get(spec.name)?.snapshot();
      const resolved = resolveStoredValues(spec, current, own);
      if (current && spec.transport !== undefined && current.transport !== spec.transport && !own.has('transport')) {
        own.add('transport', `is ${current.transport} for the registered source "${spec.name}" and cannot change: give the new one another name, or remove the source first`);
      }
      const checked = await this.checker.check(resolved, own);
      own.addAll(checked.problems);
      problems.addAll(own.all.map((p) => problemOfSource(index, p)));
      if (!own.isEmpty || !checked.connection) continue;

      if (!current) {
        changes.push({ kind: 'source', name: spec.name, action: 'create', fields: [] });
        steps.push({ action: 'create', spec: resolved });
        continue;
      }
      const fields = changedFields(current, checked.connection, settingsOf(resolved));
      changes.push({ kind: 'source', name: spec.name, action: fields.length > 0 ? 'update' : 'unchanged', fields });
      if (fields.length > 0) steps.push({ action: 'update', name: spec.name, changes: updateFor(resolved, checked.connection) });
    }

    if (prune) {
      const declaredNames = new Set(declared.map((d) => d.spec.name));
      for (const name of live.keys()) {
        if (declaredNames.has(name)) continue;
        changes.push({ kind: 'source', name, action: 'delete', fields: [] });
        steps.push({ action: 'delete', name });
      }
    }
    return { changes, steps, problems: [...problems.all] };
  }
}

/** `${stored}` stands for the value the source holds now: only an existing source has one. */
function resolveStoredValues(spec: SourceSpecInput, current: Readonly<SourceProps> | undefined, problems: ProblemList): SourceSpecInput {
  const keep = (field: 'env' | 'headers', values: Record<string, string> | undefined) => {
    if (!values || problems.has(field)) return values;
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(values)) {
      if (value !== STORED_VALUE) out[name] = value;
      else if (current?.[field][name] !== undefined) out[name] = current[field][name]!;
      else problems.add(`${field}.${name}`, storedMissing(spec.name, current !== undefined));
    }
    return out;
  };
  const resolved: SourceSpecInput = { ...spec, env: keep('env', spec.env), headers: keep('headers', spec.headers) };
  if (spec.url === STORED_VALUE && !problems.has('url')) {
    if (current?.url) resolved.url = current.url;
    else problems.add('url', storedMissing(spec.name, current !== undefined));
  }
  return resolved;
}

function storedMissing(name: string, exists: boolean): string {
  return exists
    ? `is "${STORED_VALUE}" (keep the stored value), but source "${name}" holds none here: give the value or a \${secret:NAME} reference`
    : `is "${STORED_VALUE}" (keep the stored value), but source "${name}" does not exist yet: give the value or a \${secret:NAME} reference`;
}

function changedFields(current: Readonly<SourceProps>, connection: CheckedConnection, settings: SourceSettings): string[] {
  const fields = new Set<string>();
  for (const field of CONNECTION_FIELDS) {
    if (!sameSetting(current[field], connection[field])) fields.add(REPORTED_AS[field] ?? field);
  }
  for (const field of SETTING_FIELDS) {
    if (!sameSetting(current[field], settings[field])) fields.add(field);
  }
  return [...fields];
}

/**
 * The whole declared state as an update: nulls clear what the file leaves out. No version is
 * sent: a refresh that lands between plan and apply bumps it, and the file wins over the state
 * it was compared with anyway.
 */
function updateFor(spec: SourceSpecInput, connection: CheckedConnection): SourceChangesInput {
  const stdio = connection.transport === 'stdio';
  return {
    ...settingsOf(spec),
    ...(stdio
      ? {
          lifecycle: connection.lifecycle,
          pluginDir: spec.pluginDir ?? null,
          packageIndex: spec.packageIndex,
          command: spec.command ?? null,
          args: spec.args ?? null,
          cwd: spec.cwd ?? null,
          sandbox: connection.sandbox,
          env: connection.env,
        }
      : { url: connection.url, headers: connection.headers }),
    upstreamAuth: connection.upstreamAuth,
  };
}

