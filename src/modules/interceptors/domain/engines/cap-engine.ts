import { isRecord } from '../../../../shared/is-record.js';
import { jsonBytes, jsonPrefix, resultBytes } from '../../../../shared/json-bytes.js';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { ExecutionResult } from '../../../executions/domain/execution.js';
import type { InterceptedCall, InterceptorEngine, InterceptorVerdict } from '../intercepted-call.js';
import type { CapSettings, InterceptorPhase, InterceptorSpec } from '../interceptor.js';

/** How many over-long text blocks a refusal names. */
const MAX_NAMED_BLOCKS = 20;

/**
 * `cap`: limits on the result — its size as JSON (content and structuredContent, as
 * `originalBytes` measures it), its number of content blocks, the length of each text block in
 * UTF-16 characters. Over a limit it refuses the result, or (the default) truncates it: blocks
 * kept in order while they fit, the first that does not cut if it is text, the rest left out,
 * structuredContent dropped when it alone does not fit, and a text block appended that tells the
 * model what was left out. The notice counts against `maxBytes` (unless that is smaller than the
 * notice itself) but not against `maxBlocks`. A cut never splits a surrogate pair.
 */
export class CapEngine implements InterceptorEngine {
  readonly kind = 'cap';

  run(interceptor: InterceptorSpec, _phase: InterceptorPhase, call: InterceptedCall): InterceptorVerdict {
    if (interceptor.kind !== 'cap') throw new Error(`the cap engine was given a ${interceptor.kind} interceptor`);
    const result = call.result;
    if (!result) return { decision: 'allow' };
    const limits = interceptor.settings;
    const bytes = resultBytes(result.content, result.structuredContent);
    const over = excess(result, bytes, limits);
    if (over.length === 0) return { decision: 'allow' };
    if (limits.action === 'refuse') {
      return {
        decision: 'deny',
        message: `The result is larger than the interceptor "${interceptor.name}" allows: ${over.map((problem) => problem.message).join('; ')}.`,
        details: over,
      };
    }
    return truncated(interceptor.name, result, bytes, limits);
  }
}

/** What is over a limit, as problems. */
function excess(result: ExecutionResult, bytes: number, limits: CapSettings): ProblemDetail[] {
  const over: ProblemDetail[] = [];
  if (limits.maxBytes !== undefined && bytes > limits.maxBytes) over.push({ path: 'result', message: `${bytes} bytes, more than ${limits.maxBytes}` });
  if (limits.maxBlocks !== undefined && result.content.length > limits.maxBlocks) over.push({ path: 'content', message: `${result.content.length} blocks, more than ${limits.maxBlocks}` });
  if (limits.maxTextLength !== undefined) {
    let named = 0;
    result.content.forEach((block, index) => {
      const length = textOf(block)?.length ?? 0;
      if (length > limits.maxTextLength! && named++ < MAX_NAMED_BLOCKS) over.push({ path: `content[${index}].text`, message: `${length} characters, more than ${limits.maxTextLength}` });
    });
  }
  return over;
}

function truncated(name: string, result: ExecutionResult, bytes: number, limits: CapSettings): InterceptorVerdict {
  const paths: string[] = [];
  const allows = new Set<string>();
  let content = result.content;
  if (limits.maxBlocks !== undefined && content.length > limits.maxBlocks) {
    content = content.slice(0, limits.maxBlocks);
    allows.add(`${limits.maxBlocks} blocks`);
  }
  if (limits.maxTextLength !== undefined) {
    const max = limits.maxTextLength;
    content = content.map((block, index) => {
      const text = textOf(block);
      if (text === undefined || text.length <= max) return block;
      paths.push(`content[${index}].text`);
      allows.add(`${max} characters a text block`);
      return { ...(block as Record<string, unknown>), text: cutAt(text, max) };
    });
  }

  let structuredContent = result.structuredContent;
  if (limits.maxBytes !== undefined) {
    // The notice is reserved at its largest: it only names numbers up to those of the whole result.
    const reserve = jsonBytes(notice(name, [...allows, `${limits.maxBytes} bytes`], result.content.length, bytes, structuredContent !== undefined)) + 1;
    const fitted = fitBytes(content, structuredContent, limits.maxBytes - reserve);
    if (fitted.content !== content || fitted.structuredContent !== structuredContent) allows.add(`${limits.maxBytes} bytes`);
    if (fitted.cut !== undefined) paths.push(`content[${fitted.cut}].text`);
    content = fitted.content;
    structuredContent = fitted.structuredContent;
  }
  const kept = content.length;
  const leftOut = result.content.length - kept;
  if (leftOut > 0) paths.push(`content[${kept}:]`);
  const dropped = structuredContent === undefined && result.structuredContent !== undefined;
  if (dropped) paths.push('structuredContent');
  const leftOutBytes = bytes - resultBytes(content, structuredContent);
  const capped: ExecutionResult = {
    ...result,
    content: [...content, notice(name, [...allows], leftOut, leftOutBytes, dropped)],
    truncated: true,
  };
  if (structuredContent === undefined) delete capped.structuredContent;
  return { decision: 'modify', result: capped, changes: { truncated: true, paths: [...new Set(paths)] } };
}

/**
 * The content and structuredContent within `budget` bytes (as resultBytes counts them):
 * structuredContent kept if it fits alone, then blocks in order while they fit, the first that
 * does not cut if it is text.
 */
function fitBytes(content: unknown[], structuredContent: unknown, budget: number): { content: unknown[]; structuredContent: unknown; cut?: number } {
  if (resultBytes(content, structuredContent) <= budget) return { content, structuredContent };
  const structuredBytes = structuredContent === undefined ? 0 : jsonBytes(structuredContent);
  const keepsStructured = structuredContent !== undefined && structuredBytes + 2 <= budget;
  let left = budget - 2 - (keepsStructured ? structuredBytes : 0); // 2: the array's brackets
  const kept: unknown[] = [];
  let cut: number | undefined;
  for (const block of content) {
    const separator = kept.length > 0 ? 1 : 0;
    const size = jsonBytes(block);
    if (size + separator <= left) {
      kept.push(block);
      left -= size + separator;
      continue;
    }
    const text = textOf(block);
    if (text !== undefined) {
      const overhead = jsonBytes({ ...(block as Record<string, unknown>), text: '' });
      const prefix = jsonPrefix(text, left - separator - overhead);
      if (prefix.length > 0) {
        cut = kept.length;
        kept.push({ ...(block as Record<string, unknown>), text: prefix });
      }
    }
    break;
  }
  return { content: kept, structuredContent: keepsStructured ? structuredContent : undefined, ...(cut === undefined ? {} : { cut }) };
}

function notice(name: string, allows: string[], leftOutBlocks: number, leftOutBytes: number, droppedStructured: boolean): { type: 'text'; text: string } {
  const blocks = `${leftOutBlocks} ${leftOutBlocks === 1 ? 'block' : 'blocks'}`;
  const structured = droppedStructured ? '; structuredContent was dropped' : '';
  return { type: 'text', text: `[Result truncated by Toolplane: interceptor "${name}" allows ${allows.join(', ')}; ${blocks} / ${leftOutBytes} bytes were left out${structured}]` };
}

/** The text of a text block, or undefined. */
function textOf(block: unknown): string | undefined {
  return isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : undefined;
}

/** The first `length` UTF-16 units of `text`, one fewer when the cut would split a surrogate pair. */
export function cutAt(text: string, length: number): string {
  if (text.length <= length) return text;
  const last = text.charCodeAt(length - 1);
  const next = text.charCodeAt(length);
  const splits = last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
  return text.slice(0, splits ? length - 1 : length);
}
