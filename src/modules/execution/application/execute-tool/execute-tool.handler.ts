import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { heavySteps, isHeavy } from '../../../../shared/heavy-steps.js';
import { Clock } from '../../../../shared/unit-of-work.js';
import type { ExecutionRecord } from '../../../executions/domain/execution.js';
import { InFlightCalls } from '../in-flight-calls.js';
import { Call } from './call.js';
import { ExecuteToolCommand, type ExecutedCall } from './execute-tool.command.js';
import { Hold, refuse, type Outcome } from './outcome.js';
import { AdmitStage } from './stages/admit.js';
import { CallInterceptors, type CallStage, type PreStageVerdict, type StageVerdict } from './stages/call-stage.js';
import { GuardStage } from './stages/guard.js';
import { GroupArgumentsStage } from './stages/group-arguments.js';
import { IntakeStage } from './stages/intake.js';
import { InvokeStage } from './stages/invoke.js';
import { LocateUpstreamStage } from './stages/locate-upstream.js';
import { AttachCredentialStage } from './stages/attach-credential.js';
import { ParkStage, waitingRecord } from './stages/park.js';
import { PrepareArgumentsStage } from './stages/prepare-arguments.js';
import { RecordOutcomeStage } from './stages/record-outcome.js';
import { RecordStartStage } from './stages/record-start.js';
import { ReportStage } from './stages/report.js';
import { ResolveStage } from './stages/resolve.js';
import { scrubOutcome } from './stages/scrub.js';

/**
 * ExecuteTool: every call of a tool, from every entry point (REST invoke, `/mcp` and its sources'
 * endpoints, the gateway's call_tool), runs these stages in order; the first refusal ends the
 * call, and every call, refused or not, is recorded before it is answered:
 *
 *   resolve → intake → admit → group-arguments → prepare-arguments → [pre] → guard → locate-upstream →
 *   attach-credential → record-start → (accepted) → invoke → [post] → scrub → record-outcome → report
 *
 * `[pre]` and `[post]` are the interceptors' seam (CallInterceptors). A pre interceptor may hold
 * the call for approval instead: `park` stores it and the call ends without an outcome (its
 * ExecutedCall is `waiting`) until it runs again after the decision. `(accepted)` tells the
 * command's onAccepted (CallTasks) that the call is about to be sent. docs/architecture.md lists
 * what each stage refuses.
 */
@CommandHandler(ExecuteToolCommand)
export class ExecuteToolHandler implements ICommandHandler<ExecuteToolCommand, ExecutedCall> {
  private readonly pre: readonly CallStage<PreStageVerdict>[];
  private readonly post: readonly CallStage[];

  constructor(
    @Inject(ResolveStage) private readonly resolve: ResolveStage,
    @Inject(IntakeStage) private readonly intake: IntakeStage,
    @Inject(AdmitStage) private readonly admit: AdmitStage,
    @Inject(GroupArgumentsStage) private readonly groupArguments: GroupArgumentsStage,
    @Inject(PrepareArgumentsStage) private readonly prepareArguments: PrepareArgumentsStage,
    @Inject(GuardStage) private readonly guard: GuardStage,
    @Inject(LocateUpstreamStage) private readonly locateUpstream: LocateUpstreamStage,
    @Inject(AttachCredentialStage) private readonly attachCredential: AttachCredentialStage,
    @Inject(RecordStartStage) private readonly recordStart: RecordStartStage,
    @Inject(InvokeStage) private readonly invoke: InvokeStage,
    @Inject(RecordOutcomeStage) private readonly recordOutcome: RecordOutcomeStage,
    @Inject(ReportStage) private readonly report: ReportStage,
    @Inject(ParkStage) private readonly park: ParkStage,
    @Inject(InFlightCalls) private readonly inFlight: InFlightCalls,
    @Inject(Clock) private readonly clock: Clock,
    @Optional() @Inject(CallInterceptors) interceptors?: CallInterceptors,
  ) {
    this.pre = interceptors?.pre ?? [];
    this.post = interceptors?.post ?? [];
  }

  async execute(command: ExecuteToolCommand): Promise<ExecutedCall> {
    const call = new Call(command, this.clock.now());
    const done = this.inFlight.enter();
    let outcome: Outcome;
    try {
      const ran = await this.run(call);
      if (ran instanceof Hold) {
        const parked = await this.park.run(call, ran);
        if (!('task' in parked)) outcome = parked;
        else {
          done();
          return { record: waitingRecord(call, parked), outputSchema: call.route?.tool.outputSchema ?? null, waiting: parked };
        }
      } else outcome = ran;
    } catch (error) {
      outcome = refuse('upstream_error', 'INTERNAL_ERROR', error instanceof Error ? error.message : String(error));
    }
    // Scrubbing, redacting and recording pass over the arguments and the result: large ones take a turn of their own.
    const heavy = isHeavy(command.input.arguments) || isHeavy(outcome.result);
    if (heavy) await heavySteps.turn();
    let record: ExecutionRecord;
    try {
      // Durable before the answer: the caller's reply waits for its own record.
      record = await this.recordOutcome.run(call, scrubOutcome(outcome, call.scrubber), heavy);
    } finally {
      done();
    }
    this.report.run(call, record);
    return { record, outputSchema: call.route?.tool.outputSchema ?? null };
  }

  /** The stages up to the outcome: a refusal, a hold, or what the upstream answered as the post stages left it. */
  private async run(call: Call): Promise<Outcome | Hold> {
    await this.resolve.run(call);
    const refused =
      this.intake.run(call) ?? (await this.admit.run(call)) ?? this.groupArguments.run(call) ?? (await this.prepareArguments.run(call)) ?? (await firstRefusal(this.pre, call)) ?? (await this.guard.run(call));
    if (refused) return refused;
    // From here the call holds the source's pass: released (and the circuit told) however it ends.
    const pass = call.pass!;
    try {
      const failed =
        (await this.locateUpstream.run(call)) ?? (await this.attachCredential.run(call)) ?? (await this.recordStart.run(call)) ?? (await accepted(call)) ?? (await this.invoke.run(call));
      if (failed) return failed;
    } finally {
      pass.release();
    }
    for (const stage of this.post) call.outcome = (await stage.run(call)) ?? call.outcome;
    return call.outcome!;
  }
}

/** Tells the command's onAccepted, if any, that the call is about to be sent; refuses it when that fails. */
async function accepted(call: Call): Promise<StageVerdict> {
  const onAccepted = call.command.onAccepted;
  if (!onAccepted) return undefined;
  const { tool, source } = call.route!;
  try {
    await onAccepted({ qualifiedName: tool.qualifiedName, sourceId: source.id, sourceName: source.name, group: call.input.group ?? null });
    return undefined;
  } catch {
    return refuse('rejected', 'RECORD_UNAVAILABLE', 'The call could not be recorded, so it was not sent.', true, undefined, { retryAfterMs: 1000 });
  }
}

async function firstRefusal(stages: readonly CallStage<PreStageVerdict>[], call: Call): Promise<PreStageVerdict> {
  for (const stage of stages) {
    const refusal = await stage.run(call);
    if (refusal) return refusal;
  }
  return undefined;
}
