import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { readFile } from 'node:fs/promises';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';
import { DomainError, type ProblemDetail } from '../../../shared/domain-error.js';
import { ApplyConfigCommand } from '../application/apply-config/apply-config.command.js';
import { problemOfEntry, problemOfSource } from '../domain/config-plan.js';
import { readConfigText, type ConfigDocument } from './config-document.js';

const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 60_000;
/** Who the audit trail names for changes the file made. */
export const CONFIG_FILE_ACTOR = 'config-file';

/**
 * Applies TOOLPLANE_CONFIG at start. A file that cannot be read or is malformed stops the start
 * with every problem listed. A file that is well formed but does not pass the checks yet (a
 * secret not stored yet, a host that does not resolve yet, a command still being installed) is
 * retried with backoff in the background and never stops Toolplane. Upstreams that are down are
 * not a problem of the file: their sources are registered and discovered once they answer.
 */
@Injectable()
export class ConfigFileApplier implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('config');
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CommandBus) private readonly commands: CommandBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const file = this.config.configFile;
    if (!file) return;
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new Error(`TOOLPLANE_CONFIG: cannot read ${file}: ${(error as Error).message}`, { cause: error });
    }
    const document = await readConfigText(text);
    const malformed = [
      ...document.problems,
      ...document.sources.flatMap((s, i) => s.shapeProblems.map((p) => problemOfSource(i, p))),
      ...(document.groups ?? []).flatMap((g, i) => g.shapeProblems.map((p) => problemOfEntry('groups', i, p))),
      ...(document.interceptors ?? []).flatMap((d, i) => d.shapeProblems.map((p) => problemOfEntry('interceptors', i, p))),
      ...(document.keys ?? []).flatMap((k, i) => k.shapeProblems.map((p) => problemOfEntry('keys', i, p))),
    ];
    if (malformed.length > 0) throw new Error(`TOOLPLANE_CONFIG: ${file} is invalid:\n${describe(malformed)}`);
    await this.attempt(document, FIRST_RETRY_MS);
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }

  private async attempt(document: ConfigDocument, nextDelayMs: number): Promise<void> {
    if (this.stopped) return;
    try {
      const result = await this.commands.execute(
        new ApplyConfigCommand(document.sources, [], { dryRun: false, prune: this.config.configPrune, waitForDiscovery: false }, CONFIG_FILE_ACTOR, document),
      );
      const { create, update, unchanged, delete: deleted } = result.summary;
      this.logger.log(`applied ${this.config.configFile}: ${create} created, ${update} updated, ${unchanged} unchanged, ${deleted} removed`);
    } catch (error) {
      if (this.stopped) return;
      const problems = error instanceof DomainError && error.details.length > 0 ? `\n${describe(error.details)}` : '';
      this.logger.warn(`${this.config.configFile} could not be applied yet (retrying in ${nextDelayMs / 1000} s): ${(error as Error).message}${problems}`);
      this.retry = setTimeout(() => void this.attempt(document, Math.min(nextDelayMs * 2, LONGEST_RETRY_MS)), nextDelayMs);
      this.retry.unref();
    }
  }
}

function describe(problems: readonly ProblemDetail[]): string {
  return problems.map((p) => `  ${p.path}: ${p.message}`).join('\n');
}
