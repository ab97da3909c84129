import { isRecord } from '../../../../shared/is-record.js';
import type { ExecutionResult } from '../../../executions/domain/execution.js';
import type { InterceptedCall, InterceptorEngine, InterceptorVerdict } from '../intercepted-call.js';
import type { InterceptorPhase, InterceptorSpec } from '../interceptor.js';
import { Redactor } from '../redaction/redactor.js';
import { withStringsReplaced } from './json-strings.js';

/**
 * `redact`: masks what its detectors find in the result — the text of text blocks, the text of
 * embedded resources, every string in structuredContent (keys stay) — as `[kind]`. The verdict
 * counts what was masked by kind and names the blocks changed, never a value found. The result's
 * `originalBytes` and `truncated` stay as the upstream's answer set them.
 */
export class RedactEngine implements InterceptorEngine {
  readonly kind = 'redact';
  private readonly redactors = new WeakMap<InterceptorSpec, Redactor>();

  run(interceptor: InterceptorSpec, _phase: InterceptorPhase, call: InterceptedCall): InterceptorVerdict {
    const result = call.result;
    if (!result) return { decision: 'allow' };
    const redactor = this.redactorOf(interceptor);
    const counts: Record<string, number> = {};
    const paths: string[] = [];
    const redact = (text: string) => redactor.redact(text, counts);

    let content: unknown[] | undefined;
    result.content.forEach((block, index) => {
      const changed = redactedBlock(block, redact);
      if (!changed) return;
      content ??= [...result.content];
      content[index] = changed.block;
      paths.push(`content[${index}].${changed.path}`);
    });
    let structuredContent = result.structuredContent;
    if (structuredContent !== undefined) {
      structuredContent = withStringsReplaced(structuredContent, redact);
      if (structuredContent !== result.structuredContent) paths.push('structuredContent');
    }
    if (paths.length === 0) return { decision: 'allow' };
    const redacted: ExecutionResult = { ...result, content: content ?? result.content, ...(structuredContent === undefined ? {} : { structuredContent }) };
    return { decision: 'modify', result: redacted, changes: { paths, counts } };
  }

  private redactorOf(interceptor: InterceptorSpec): Redactor {
    let redactor = this.redactors.get(interceptor);
    if (!redactor) {
      if (interceptor.kind !== 'redact') throw new Error(`the redact engine was given a ${interceptor.kind} interceptor`);
      redactor = Redactor.of(interceptor.settings);
      this.redactors.set(interceptor, redactor);
    }
    return redactor;
  }
}

/** The block with its text redacted and where that text is, or undefined when nothing in it changed. */
function redactedBlock(block: unknown, redact: (text: string) => string): { block: Record<string, unknown>; path: string } | undefined {
  if (!isRecord(block)) return undefined;
  if (block.type === 'text' && typeof block.text === 'string') {
    const text = redact(block.text);
    return text === block.text ? undefined : { block: { ...block, text }, path: 'text' };
  }
  if (block.type === 'resource' && isRecord(block.resource) && typeof block.resource.text === 'string') {
    const text = redact(block.resource.text);
    return text === block.resource.text ? undefined : { block: { ...block, resource: { ...block.resource, text } }, path: 'resource.text' };
  }
  return undefined;
}
