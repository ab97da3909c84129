import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProblemList, type ProblemDetail } from '../../../../shared/domain-error.js';
import { isRecord } from '../../../../shared/is-record.js';
import { IdGenerator } from '../../../../shared/unit-of-work.js';
import { ToolViews } from '../../../inventory/application/tool-views.js';
import type { InterceptedCall, InterceptorEngine } from '../../domain/intercepted-call.js';
import { KIND_PHASES, type InterceptorKind, type InterceptorPhase, type InterceptorSpec } from '../../domain/interceptor.js';
import { outOfScope } from '../../domain/interceptor-scope.js';
import { SchemaChecks } from '../../domain/schema-checks.port.js';
import { INTERCEPTOR_ENGINES, InterceptorChain } from '../interceptor-chain.js';
import { InterceptorSpecChecker } from '../interceptor-spec-checker.js';
import { PreviewInterceptorQuery, type InterceptorPreview } from './preview-interceptor.query.js';
import { checkSampleCall, type SampleCall } from './sample-call.js';

const BODY_FIELDS = ['interceptor', 'call'];

/**
 * Tries an interceptor not saved on a sample call: the interceptor checked as creating it would
 * be, the tool looked up in the inventory (a stand-in for a name it does not know), the sample's
 * arguments checked against the tool's inputSchema as the pipeline checks them before any pre
 * interceptor, then the interceptor's engine run once through InterceptorChain's run — its
 * timeout, onError, and for pre the arguments it answers checked again. No upstream is called,
 * nothing is stored, and no metric counts it.
 */
@QueryHandler(PreviewInterceptorQuery)
export class PreviewInterceptorHandler implements IQueryHandler<PreviewInterceptorQuery, InterceptorPreview> {
  /** The chain's run without the interceptors in force, telemetry or metrics: a preview is no call. */
  private readonly chain: InterceptorChain;

  constructor(
    @Inject(InterceptorSpecChecker) private readonly checker: InterceptorSpecChecker,
    @Inject(ToolViews) private readonly tools: ToolViews,
    @Inject(SchemaChecks) private readonly schemas: SchemaChecks,
    @Inject(IdGenerator) private readonly ids: IdGenerator,
    @Inject(INTERCEPTOR_ENGINES) engines: readonly InterceptorEngine[],
  ) {
    this.chain = new InterceptorChain(undefined, engines);
  }

  async execute({ input, principal, shapeProblems }: PreviewInterceptorQuery): Promise<InterceptorPreview> {
    const problems = new ProblemList();
    problems.addAll(shapeProblems);
    problems.throwIfAny('The preview is invalid.');
    for (const key of Object.keys(input)) if (!BODY_FIELDS.includes(key)) problems.add(key, `is not a known property (${BODY_FIELDS.join(', ')})`);
    const spec = await this.checkInterceptor(input.interceptor, problems);
    const sample = checkSampleCall(input.call, spec?.phase ?? intendedPhase(input.interceptor), problems);
    problems.throwIfAny('The preview is invalid.');
    const found = await this.tools.get(sample!.tool);
    const call = this.interceptedCall(sample!, found, principal);
    const checkArguments = spec!.phase === 'pre' ? await this.argumentCheck(call.tool.inputSchema) : undefined;
    if (checkArguments) {
      problems.addAll(await checkArguments(call.arguments, 'call.arguments'));
      problems.throwIfAny('The sample arguments do not match the tool\'s inputSchema: a call with them is refused before any pre interceptor runs.');
    }
    return this.run(spec!, call, found !== undefined, checkArguments);
  }

  /** The interceptor as creating it would check it, its problems under `interceptor`. */
  private async checkInterceptor(value: unknown, problems: ProblemList): Promise<InterceptorSpec | undefined> {
    if (!isRecord(value)) {
      problems.add('interceptor', 'is required: an interceptor as POST /api/v1/interceptors takes it');
      return undefined;
    }
    const own = new ProblemList();
    const spec = await this.checker.check(value, own);
    problems.addAll(own.all.map((problem) => ({ path: problem.path === 'body' ? 'interceptor' : `interceptor.${problem.path}`, message: problem.message })));
    return spec;
  }

  private interceptedCall(sample: SampleCall, found: Awaited<ReturnType<ToolViews['get']>>, principal: { id: string; name: string }): InterceptedCall {
    const tool: InterceptedCall['tool'] = found
      ? {
          qualifiedName: found.qualifiedName,
          name: found.name,
          sourceName: found.source.name,
          inputSchema: found.inputSchema,
          outputSchema: found.outputSchema,
          annotations: found.annotations,
          description: found.description,
        }
      : standIn(sample.tool);
    return {
      executionId: this.ids.next(),
      tool,
      group: sample.group,
      principal: { id: principal.id, name: principal.name },
      channel: 'rest',
      arguments: sample.arguments,
      ...(sample.result ? { result: sample.result, isError: sample.isError ?? false } : {}),
    };
  }

  /** The problems of arguments against the input schema (none when the schema cannot be compiled: such a tool cannot be called at all). */
  private async argumentCheck(schema: Record<string, unknown>): Promise<((args: Record<string, unknown>, base?: string) => ProblemDetail[]) | undefined> {
    const check = await this.schemas.compile(schema);
    return check.usable ? (args, base = 'arguments') => check.problems(args, base) : undefined;
  }

  private async run(
    spec: InterceptorSpec,
    call: InterceptedCall,
    known: boolean,
    checkArguments: ((args: Record<string, unknown>) => ProblemDetail[]) | undefined,
  ): Promise<InterceptorPreview> {
    const why = spec.enabled ? outOfScope(spec.scope, { source: call.tool.sourceName, group: call.group, tool: call.tool.qualifiedName }) : 'it is disabled: no call runs it';
    const outcome = await this.chain.run(spec.phase, [spec], call, checkArguments ? { checkArguments: (args) => checkArguments(args) } : {});
    const run = outcome.runs[0]!;
    const denial = outcome.denial;
    const message = denial?.message ?? run.failure;
    return {
      applies: why === undefined,
      ...(why === undefined ? {} : { why }),
      tool: { qualifiedName: call.tool.qualifiedName, source: call.tool.sourceName, known },
      decision: run.decision,
      refused: denial !== undefined,
      ...(message === undefined ? {} : { message }),
      ...(run.warning === undefined ? {} : { warning: run.warning }),
      ...(denial ? { code: denial.code } : {}),
      ...(denial?.details ? { details: denial.details } : {}),
      changes: run.changes ?? {},
      ...(spec.phase === 'pre' ? { arguments: outcome.arguments } : {}),
      ...(spec.phase === 'post' && outcome.result ? { result: shownResult(outcome.result, outcome.isError ?? call.isError ?? false) } : {}),
      durationMs: run.durationMs,
    };
  }
}

/** The phase an interceptor with problems is meant for, when it tells (a phase its kind runs in, or its kind's only one): whether the sample needs a result. */
function intendedPhase(value: unknown): InterceptorPhase | undefined {
  if (!isRecord(value)) return undefined;
  const given = value.phase === 'pre' || value.phase === 'post' ? value.phase : undefined;
  const phases = typeof value.kind === 'string' && Object.hasOwn(KIND_PHASES, value.kind) ? KIND_PHASES[value.kind as InterceptorKind] : undefined;
  if (!phases) return given;
  if (given && phases.includes(given)) return given;
  return phases.length === 1 ? phases[0] : undefined;
}

/** A tool the inventory does not know: the name given, its source read from it (`source__tool`), no schema. */
function standIn(qualifiedName: string): InterceptedCall['tool'] {
  const split = qualifiedName.indexOf('__');
  return {
    qualifiedName,
    name: split > 0 ? qualifiedName.slice(split + 2) : qualifiedName,
    sourceName: split > 0 ? qualifiedName.slice(0, split) : '',
    inputSchema: { type: 'object' },
    outputSchema: null,
    annotations: null,
    description: null,
  };
}

function shownResult(result: { content: unknown[]; structuredContent?: unknown }, isError: boolean): InterceptorPreview['result'] {
  return { content: result.content, ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }), isError };
}
