import { Command } from '@nestjs/cqrs';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { ConfigApplyResult } from '../../domain/config-plan.js';
import type { DeclaredSource } from './config-planner.js';
import type { DeclaredGroup } from './group-planner.js';
import type { DeclaredInterceptor } from './interceptor-planner.js';
import type { DeclaredKey } from './key-planner.js';

export interface ApplyOptions {
  /** Only answer what applying would change. */
  dryRun: boolean;
  /** Remove live sources the file does not declare. */
  prune: boolean;
  /** Wait (bounded) for the first discovery of each created or reconnected source. */
  waitForDiscovery: boolean;
}

export class ApplyConfigCommand extends Command<ConfigApplyResult> {
  constructor(
    readonly sources: DeclaredSource[],
    /** Problems of the file as a whole (YAML, top-level keys, duplicate names), reported with the rest. */
    readonly documentProblems: ProblemDetail[],
    readonly options: ApplyOptions,
    readonly actor: string,
    /** The file's `groups:`, `interceptors:` and `keys:` (undefined: it has none, and those are left alone). */
    readonly declared: { groups?: DeclaredGroup[]; interceptors?: DeclaredInterceptor[]; keys?: DeclaredKey[] } = {},
    /** What the actor may manage: a file with `groups:` needs groups:manage, one with `interceptors:` interceptors:manage, one with `keys:` keys:manage. */
    readonly may: { groups: boolean; interceptors: boolean; keys: boolean } = { groups: true, interceptors: true, keys: true },
  ) {
    super();
  }
}
