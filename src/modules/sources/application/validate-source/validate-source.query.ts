import type { DefinitionFinding } from '../../../inventory/domain/definition-scan/index.js';
import { Query } from '@nestjs/cqrs';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { SourceSpecInput } from '../source-spec.js';

export interface ValidationReport {
  valid: boolean;
  problems: ProblemDetail[];
  notes: string[];
  resolved: {
    transport: string;
    lifecycle: string;
    command: string | null;
    args: string[];
    cwd: string | null;
    url: string | null;
    manifest: { file: string; name: string; version: string } | null;
  } | null;
  connection: {
    ok: boolean;
    error?: string;
    durationMs: number;
    protocol?: { era: string; version: string };
    serverInfo?: { name: string; version?: string };
  } | null;
  tools: {
    name: string;
    qualifiedName: string;
    title?: string;
    description?: string;
    annotations?: Record<string, unknown>;
    /** What the definition scan finds in it, and whether the source's pinning would hold it for review. */
    findings: DefinitionFinding[];
    held: boolean;
  }[];
}

/** A dry run of RegisterSource: every check, a real connection (unless told not to) and a tool preview; nothing stored. */
export class ValidateSourceQuery extends Query<ValidationReport> {
  constructor(
    readonly spec: SourceSpecInput,
    readonly shapeProblems: ProblemDetail[],
    /** Who asked: a dry run starts the given command, so it is audited like a registration. */
    readonly actor: string,
    /** false: every check but the connection; nothing is started (and nothing audited). */
    readonly connect: boolean = true,
  ) {
    super();
  }
}
