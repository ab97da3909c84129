import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import openapiTS, { astToString } from 'openapi-typescript';
import { ProblemList } from '../../../shared/domain-error.js';
import { parseYamlText } from '../../../shared/yaml-text.js';
import { anInterceptedCall } from '../testing/engine-fixtures.js';
import type { InterceptorPhase } from '../domain/interceptor.js';
import { checkInterceptorSpec } from '../domain/interceptor-spec.js';
import { webhookVerdict } from '../domain/webhook-answer.js';
import { webhookRequestBody } from '../domain/webhook-request.js';

const read = (path: string) => readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8');
const OPENAPI = 'docs/interceptor-webhook.openapi.yaml';

/** The document, parsed as configuration is (YAML 1.2 core, unique keys). */
function openApi(): Record<string, any> {
  const parsed = parseYamlText(read(OPENAPI));
  if (!parsed.ok) throw new Error(`${OPENAPI}: ${JSON.stringify(parsed.problems)}`);
  return parsed.value as Record<string, any>;
}

/** A validator of one of the document's component schemas. */
function schemaOf(name: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: 'webhook', components: openApi().components }, 'webhook');
  const validate = ajv.getSchema(`webhook#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name}`);
  return validate;
}

const call = anInterceptedCall({
  tool: { qualifiedName: 'files__read_file', name: 'read_file', sourceName: 'files' },
  channel: 'mcp',
  arguments: { path: '/tmp/a' },
  result: { content: [{ type: 'text', text: 'a' }], structuredContent: { a: 1 }, meta: { m: 1 }, truncated: false, originalBytes: 30 },
  isError: true,
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
});

describe('docs/interceptor-webhook.md', () => {
  it('writes its webhook interceptor as the interceptors API takes it', () => {
    const blocks = [...read('docs/interceptor-webhook.md').matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1]!) as Record<string, unknown>);
    const interceptors = blocks.filter((block) => block.kind === 'webhook');
    expect(interceptors).toHaveLength(1);
    const problems = new ProblemList();
    checkInterceptorSpec(interceptors[0]!, problems);
    expect(problems.all).toEqual([]);
  });
});

describe('docs/examples/interceptor-webhook.mjs', () => {
  it('stays under 50 lines', () => {
    expect(read('docs/examples/interceptor-webhook.mjs').trimEnd().split('\n').length).toBeLessThan(50);
  });
});

describe('docs/interceptor-webhook.openapi.yaml', () => {
  it('is an OpenAPI 3.1 document of the webhook, whose references all resolve', async () => {
    const document = openApi();
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(Object.keys(document.webhooks)).toEqual(['interceptorCall']);
    expect(document.webhooks.interceptorCall.post.operationId).toBe('interceptCall');
    // openapi-typescript bundles and checks the document (a $ref to nowhere fails it).
    const types = astToString(await openapiTS(read(OPENAPI), { silent: true }));
    expect(types).toContain('export interface webhooks');
  });

  it('describes the request bodies the engine sends, field by field', () => {
    const validate = schemaOf('InterceptedCall');
    const components = openApi().components.schemas;
    for (const phase of ['pre', 'post'] as const) {
      const body = JSON.parse(JSON.stringify(webhookRequestBody('policy', phase, phase === 'pre' ? { ...call, result: undefined } : call)));
      expect({ phase, valid: validate(body), errors: validate.errors ?? null }).toEqual({ phase, valid: true, errors: null });
      // Every field sent is documented (the schema leaves objects open for later additions).
      expect(Object.keys(body).filter((key) => !(key in components.InterceptedCall.properties))).toEqual([]);
      expect(Object.keys(body.tool).filter((key) => !(key in components.InterceptedCall.properties.tool.properties))).toEqual([]);
      if (phase === 'post') expect(Object.keys(body.result).filter((key) => !(key in components.CallResult.properties))).toEqual([]);
    }
    expect(validate({ ...webhookRequestBody('policy', 'pre', call), result: undefined, phase: 'post' })).toBe(false);
  });

  it("holds its own examples to its schemas", () => {
    const post = openApi().webhooks.interceptorCall.post;
    const request = schemaOf('InterceptedCall');
    for (const example of Object.values(post.requestBody.content['application/json'].examples) as { value: unknown }[]) expect(request(example.value)).toBe(true);
    const answer = schemaOf('Answer');
    for (const example of Object.values(post.responses['2XX'].content['application/json'].examples) as { value: unknown }[]) expect(answer(example.value)).toBe(true);
  });

  it('describes the answers the engine accepts: an answer is valid there exactly when one phase accepts it', () => {
    const validate = schemaOf('Answer');
    const accepts = (text: string, phase: InterceptorPhase) => {
      try {
        webhookVerdict(text, phase, call);
        return true;
      } catch {
        return false;
      }
    };
    // Mostly the right shapes, so the generated answers are valid often enough; a wrong type anywhere now and then.
    const json = fc.jsonValue({ maxDepth: 1 });
    const mostly = <T>(right: fc.Arbitrary<T>) => fc.oneof({ arbitrary: right, weight: 5 }, { arbitrary: json, weight: 1 });
    const block = mostly(
      fc.oneof(
        fc.record({ type: fc.constant('text'), text: mostly(fc.string()) }),
        fc.record({ type: fc.constantFrom('image', 'audio', 'video'), data: fc.string(), mimeType: mostly(fc.string()) }, { requiredKeys: ['type', 'data'] }),
        fc.record({ type: fc.constant('resource_link'), uri: fc.string(), name: mostly(fc.string()) }, { requiredKeys: ['type', 'uri'] }),
        fc.record({ type: fc.constant('resource'), resource: mostly(fc.record({ uri: fc.string(), text: mostly(fc.string()), blob: mostly(fc.string()) }, { requiredKeys: ['uri'] })) }),
      ),
    );
    const result = fc.record({ content: mostly(fc.array(block, { maxLength: 3 })), structuredContent: mostly(fc.dictionary(fc.string(), json)), isError: mostly(fc.boolean()) }, { requiredKeys: [] });
    const shaped = fc.oneof(
      fc.record({ decision: fc.constant('allow') }),
      fc.record({ decision: fc.constant('deny'), message: mostly(fc.oneof(fc.string({ maxLength: 3 }), fc.string({ minLength: 1999, maxLength: 2001 }))) }),
      fc.record({ decision: fc.constant('modify'), arguments: mostly(fc.dictionary(fc.string(), json)) }),
      fc.record({ decision: fc.constant('modify'), result: mostly(result) }),
    );
    // Now and then a field of another answer, or of none, over it.
    const noise = fc.record({ decision: json, message: json, arguments: mostly(fc.dictionary(fc.string(), json)), result: mostly(result) }, { requiredKeys: [] });
    const answer = fc
      .tuple(shaped, fc.oneof({ arbitrary: fc.constant({}), weight: 3 }, { arbitrary: noise, weight: 1 }))
      .map(([base, over]) => ({ ...base, ...over }));
    const kinds = new Map<string, number>();
    fc.assert(
      fc.property(answer, (value) => {
        const text = JSON.stringify(value);
        // Keys that could reach a prototype are refused by the engine on principle; the schema knows nothing of them.
        fc.pre(!text.includes('__proto__') && !text.includes('prototype'));
        const documented = validate(value);
        expect({ value, documented }).toEqual({ value, documented: accepts(text, 'pre') || accepts(text, 'post') });
        const kind = documented ? `${(value as { decision: string }).decision}${'result' in value ? ' result' : ''}` : 'invalid';
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }),
      { numRuns: 2000 },
    );
    // Every kind of valid answer was among those tried.
    expect([...kinds.keys()].sort()).toEqual(['allow', 'deny', 'invalid', 'modify', 'modify result']);
    expect(Math.min(...kinds.values())).toBeGreaterThan(20);
  });
});
