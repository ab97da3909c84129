import type { ProblemList } from '../../../../shared/domain-error.js';
import { isRecord } from '../../../../shared/is-record.js';
import { resultBytes } from '../../../../shared/json-bytes.js';
import type { ExecutionResult } from '../../../executions/domain/execution.js';
import { GROUP_NAME_PATTERN } from '../../../groups/domain/group-spec.js';
import { QUALIFIED_NAME_PATTERN } from '../../../inventory/domain/qualified-name.js';
import type { InterceptorPhase } from '../../domain/interceptor.js';

/** A call to try an interceptor on: the tool by its qualified name, its arguments, the group it came through, and (post) what the tool answered. */
export interface SampleCall {
  tool: string;
  group: string | null;
  arguments: Record<string, unknown>;
  /** post: the result as the upstream answered it. */
  result?: ExecutionResult;
  /** post: the upstream answered a tool error. */
  isError?: boolean;
}

const CALL_FIELDS = ['tool', 'arguments', 'result', 'group'];
const RESULT_FIELDS = ['content', 'structuredContent', 'isError'];

/**
 * The sample call of a preview, every problem added under `call.…`: a qualified tool name, the
 * arguments as an object, a group's name, and for a post interceptor the result (MCP content
 * blocks, each an object with a `type`; structuredContent an object; isError true or false).
 * Undefined when any is wrong.
 */
export function checkSampleCall(value: unknown, phase: InterceptorPhase | undefined, problems: ProblemList): SampleCall | undefined {
  if (!isRecord(value)) {
    problems.add('call', 'is required: an object with the tool (its qualified name), its arguments and, for a post interceptor, its result');
    return undefined;
  }
  const before = problems.all.length;
  for (const key of Object.keys(value)) if (!CALL_FIELDS.includes(key)) problems.add(`call.${key}`, `is not a known property (${CALL_FIELDS.join(', ')})`);
  const { tool, group } = value;
  if (typeof tool !== 'string' || !QUALIFIED_NAME_PATTERN.test(tool)) problems.add('call.tool', "must be a tool's qualified name (source__tool): letters, digits, _ and -, 1-64 characters");
  if (group !== undefined && group !== null && (typeof group !== 'string' || !GROUP_NAME_PATTERN.test(group))) {
    problems.add('call.group', "must be a tool group's name: a lowercase slug (letters, digits and dashes, 1-63 characters), or left out for a call through no group");
  }
  const args = value.arguments ?? {};
  if (!isRecord(args)) problems.add('call.arguments', 'must be an object of argument values');
  let result: ExecutionResult | undefined;
  let isError: boolean | undefined;
  if (value.result === undefined || value.result === null) {
    if (phase === 'post') problems.add('call.result', 'is required for a post interceptor: the result the tool answered, as {"content": [{"type": "text", "text": "…"}]}');
  } else {
    const checked = checkSampleResult(value.result, problems);
    if (checked) ({ result, isError } = checked);
  }
  if (problems.all.length > before) return undefined;
  return {
    tool: tool as string,
    group: typeof group === 'string' ? group : null,
    arguments: args as Record<string, unknown>,
    ...(result ? { result, isError: isError ?? false } : {}),
  };
}

function checkSampleResult(value: unknown, problems: ProblemList): { result: ExecutionResult; isError?: boolean } | undefined {
  if (!isRecord(value)) {
    problems.add('call.result', 'must be an object: {content, structuredContent?, isError?}');
    return undefined;
  }
  const before = problems.all.length;
  for (const key of Object.keys(value)) if (!RESULT_FIELDS.includes(key)) problems.add(`call.result.${key}`, `is not a known property (${RESULT_FIELDS.join(', ')})`);
  const { content, structuredContent, isError } = value;
  if (!Array.isArray(content)) problems.add('call.result.content', 'must be an array of content blocks, as [{"type": "text", "text": "…"}]');
  else {
    content.forEach((block, i) => {
      if (!isRecord(block) || typeof block.type !== 'string' || block.type === '') problems.add(`call.result.content[${i}]`, 'must be a content block: an object with its type (text, image, audio, resource, resource_link)');
    });
  }
  if (structuredContent !== undefined && structuredContent !== null && !isRecord(structuredContent)) problems.add('call.result.structuredContent', 'must be an object');
  if (isError !== undefined && isError !== null && typeof isError !== 'boolean') problems.add('call.result.isError', 'must be true or false');
  if (problems.all.length > before) return undefined;
  const blocks = content as unknown[];
  const structured = isRecord(structuredContent) ? structuredContent : undefined;
  return {
    result: { content: blocks, ...(structured ? { structuredContent: structured } : {}), truncated: false, originalBytes: resultBytes(blocks, structured) },
    ...(typeof isError === 'boolean' ? { isError } : {}),
  };
}
