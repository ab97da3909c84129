import { canonicalJson } from '../../../shared/canonical-json.js';
import { parseJsonBody } from '../../../shared/http/json-body.js';
import { isRecord } from '../../../shared/is-record.js';
import { resultBytes } from '../../../shared/json-bytes.js';
import type { ExecutionResult } from '../../executions/domain/execution.js';
import type { InterceptedCall, InterceptorVerdict } from './intercepted-call.js';
import type { InterceptorPhase } from './interceptor.js';

/** The largest answer a webhook may give; a larger one fails the run unread. */
export const MAX_WEBHOOK_ANSWER_BYTES = 1024 * 1024;
/** The longest message a `deny` answer may carry. */
export const MAX_WEBHOOK_DENY_CHARS = 2000;
/** Problems named in one failure at most. */
const MAX_PROBLEMS = 10;

const DECISIONS = '"allow", "deny" or "modify"';

/**
 * The verdict a webhook's answer (its JSON text, read within MAX_WEBHOOK_ANSWER_BYTES) gives for
 * `call`, or an Error naming everything wrong with it. The answer is foreign: nothing of it is
 * trusted, and no error repeats more of it than a field's name.
 */
export function webhookVerdict(text: string, phase: InterceptorPhase, call: InterceptedCall): InterceptorVerdict {
  const parsed = parseJsonBody(text);
  if (!parsed.ok) {
    const why =
      parsed.code === 'INVALID_JSON' ? 'is not JSON' : parsed.code === 'UNSAFE_JSON_KEY' ? 'has a key that is not accepted (__proto__, or constructor.prototype)' : parsed.details[0]!.message;
    throw new Error(`the webhook's answer ${why}`);
  }
  const answer = parsed.value;
  if (!isRecord(answer)) throw new Error("the webhook's answer is not a JSON object");
  switch (answer.decision) {
    case 'allow':
      refuse(answer.arguments !== undefined || answer.result !== undefined ? ['decision "allow" takes no arguments or result'] : []);
      return { decision: 'allow' };
    case 'deny':
      refuse([
        ...(answer.arguments !== undefined || answer.result !== undefined ? ['decision "deny" takes no arguments or result'] : []),
        ...(typeof answer.message === 'string' && answer.message.length > 0 && characters(answer.message) <= MAX_WEBHOOK_DENY_CHARS
          ? []
          : [`decision "deny" needs a message: a string of 1 to ${MAX_WEBHOOK_DENY_CHARS.toLocaleString('en-US')} characters`]),
      ]);
      return { decision: 'deny', message: answer.message as string };
    case 'modify':
      return phase === 'pre' ? modifiedArguments(answer, call) : modifiedResult(answer);
    case undefined:
      throw new Error(`the webhook's answer has no decision (${DECISIONS})`);
    default:
      throw new Error(`the webhook's answer has an unknown decision (expected ${DECISIONS})`);
  }
}

function modifiedArguments(answer: Record<string, unknown>, call: InterceptedCall): InterceptorVerdict {
  refuse([
    ...(answer.result !== undefined ? ['a pre webhook may not answer a result, only arguments'] : []),
    ...(isRecord(answer.arguments) ? [] : ['decision "modify" before the call needs arguments: a JSON object']),
  ]);
  const args = answer.arguments as Record<string, unknown>;
  const paths = [...new Set([...Object.keys(call.arguments), ...Object.keys(args)])]
    .filter((name) => !Object.hasOwn(call.arguments, name) || !Object.hasOwn(args, name) || canonicalJson(call.arguments[name]) !== canonicalJson(args[name]))
    .sort()
    .map((name) => `arguments.${name}`);
  return { decision: 'modify', arguments: args, changes: { paths } };
}

function modifiedResult(answer: Record<string, unknown>): InterceptorVerdict {
  const problems: string[] = [];
  if (answer.arguments !== undefined) problems.push('a post webhook may not answer arguments, only a result');
  const result = answer.result;
  if (!isRecord(result)) {
    problems.push('decision "modify" after the call needs a result: an object with content');
    return failWith(problems);
  }
  const { content, structuredContent, isError } = result;
  if (!Array.isArray(content)) problems.push('result.content must be an array of MCP content blocks');
  else content.forEach((block, index) => problems.push(...blockProblems(block).map((why) => `result.content[${index}] ${why}`)));
  if (structuredContent !== undefined && !isRecord(structuredContent)) problems.push('result.structuredContent must be a JSON object');
  if (isError !== undefined && typeof isError !== 'boolean') problems.push('result.isError must be a boolean');
  refuse(problems);
  const blocks = content as unknown[];
  const replaced: ExecutionResult = {
    content: blocks,
    ...(structuredContent === undefined ? {} : { structuredContent }),
    truncated: false,
    originalBytes: resultBytes(blocks, structuredContent),
  };
  return { decision: 'modify', result: replaced, ...(isError === undefined ? {} : { isError: isError as boolean }), changes: { paths: ['result'] } };
}

/** What makes `block` no MCP content block (text, image, audio, resource_link, resource), if anything. */
function blockProblems(block: unknown): string[] {
  if (!isRecord(block)) return ['is not an object'];
  const strings = (...fields: string[]) => fields.filter((field) => typeof block[field] !== 'string').map((field) => `needs ${field} (a string)`);
  switch (block.type) {
    case 'text':
      return strings('text');
    case 'image':
    case 'audio':
      return strings('data', 'mimeType');
    case 'resource_link':
      return strings('uri', 'name');
    case 'resource': {
      const resource = block.resource;
      const optional = (field: string) => isRecord(resource) && (resource[field] === undefined || typeof resource[field] === 'string');
      if (!isRecord(resource) || typeof resource.uri !== 'string' || (resource.text === undefined && resource.blob === undefined) || !optional('text') || !optional('blob')) {
        return ['needs resource: an object with a uri and a text or a blob (strings)'];
      }
      return [];
    }
    default:
      return ['has no known type (text, image, audio, resource_link, resource)'];
  }
}

/** A text's length in characters (code points), as JSON Schema's maxLength counts them. */
function characters(text: string): number {
  if (text.length <= MAX_WEBHOOK_DENY_CHARS) return text.length;
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

function refuse(problems: string[]): void {
  if (problems.length > 0) failWith(problems);
}

function failWith(problems: string[]): never {
  const listed = problems.slice(0, MAX_PROBLEMS).join('; ');
  const more = problems.length > MAX_PROBLEMS ? ` (and ${problems.length - MAX_PROBLEMS} more)` : '';
  throw new Error(`the webhook's answer is not usable: ${listed}${more}`);
}
