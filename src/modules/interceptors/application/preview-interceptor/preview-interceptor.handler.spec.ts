import { catalogTool } from '../../../../../test/helpers/catalog-tools.js';
import { SequentialIds } from '../../../../shared/testing/sequential-ids.js';
import { rejection } from '../../../../shared/testing/rejection.js';
import { InMemoryToolViews } from '../../../inventory/testing/in-memory-tool-views.js';
import type { InterceptorVerdict } from '../../domain/intercepted-call.js';
import { SchemaChecks, type SchemaCheck } from '../../domain/schema-checks.port.js';
import { aResult, text } from '../../testing/engine-fixtures.js';
import { interceptorsFixture } from '../../testing/interceptors-fixture.js';
import { ScriptedEngine } from '../../testing/scripted-engine.js';
import { PreviewInterceptorHandler } from './preview-interceptor.handler.js';
import { PreviewInterceptorQuery } from './preview-interceptor.query.js';

/** Checks only `required`: each property left out is a problem at its path. */
class RequiredChecks extends SchemaChecks {
  async compile(schema: Record<string, unknown>): Promise<SchemaCheck> {
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    return { usable: true, problems: (value, base) => required.filter((name) => !Object.hasOwn(value as object, name)).map((name) => ({ path: `${base}.${name}`, message: 'is required' })) };
  }
}

const CONTACT = catalogTool('crm__get_contact', {
  description: 'A contact of the CRM.',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  annotations: { readOnlyHint: true },
});
const MAIL = aResult([text('Write to ada@example.com')]);

function setup() {
  const f = interceptorsFixture({ secrets: { HOOK_KEY: 'k3y' } });
  const engines = { redact: new ScriptedEngine('redact'), deny: new ScriptedEngine('deny'), defaults: new ScriptedEngine('defaults'), cap: new ScriptedEngine('cap') };
  const handler = new PreviewInterceptorHandler(f.checker, new InMemoryToolViews([CONTACT]), new RequiredChecks(), new SequentialIds('preview-'), Object.values(engines));
  const preview = (interceptor: unknown, call: unknown, extra: Record<string, unknown> = {}) =>
    handler.execute(new PreviewInterceptorQuery({ interceptor, call, ...extra }, { id: 'admin', name: 'admin' }));
  return { ...f, engines, preview };
}

const MASK = { name: 'mask-pii', kind: 'redact', scope: { source: 'crm' } };
const MASKED: InterceptorVerdict = { decision: 'modify', result: aResult([text('Write to [email]')]), changes: { paths: ['content[0].text'], counts: { email: 1 } } };

describe('PreviewInterceptor', () => {
  it("runs the interceptor's engine once on the sample, with the tool as the inventory knows it, and answers what it changed and the result after", async () => {
    const f = setup();
    f.engines.redact.answer('mask-pii', MASKED);
    const preview = await f.preview(MASK, { tool: 'crm__get_contact', arguments: { id: 'c-1' }, result: { content: [text('Write to ada@example.com')] } });
    expect(preview).toEqual({
      applies: true,
      tool: { qualifiedName: 'crm__get_contact', source: 'crm', known: true },
      decision: 'modify',
      refused: false,
      changes: { paths: ['content[0].text'], counts: { email: 1 } },
      result: { content: [text('Write to [email]')], isError: false },
      durationMs: expect.any(Number),
    });
    expect(f.engines.redact.seen).toHaveLength(1);
    const { call, phase } = f.engines.redact.seen[0]!;
    expect(phase).toBe('post');
    expect(call).toEqual({
      executionId: 'preview-1',
      tool: { qualifiedName: 'crm__get_contact', name: 'get_contact', sourceName: 'crm', inputSchema: CONTACT.inputSchema, outputSchema: null, annotations: { readOnlyHint: true }, description: 'A contact of the CRM.' },
      group: null,
      principal: { id: 'admin', name: 'admin' },
      channel: 'rest',
      arguments: { id: 'c-1' },
      result: MAIL,
      isError: false,
    });
    // Nothing is stored.
    expect([f.interceptors.interceptors.size, f.audit.events.length, f.events.published.length]).toEqual([0, 0, 0]);
  });

  it('lists every problem of the interceptor (under interceptor.) and of the sample call (under call.) at once', async () => {
    const f = setup();
    const error = await rejection(f.preview({ name: 'No', kind: 'deny', rules: [{ argument: 'path', pattern: '(?<=x)', message: '' }] }, { tool: 'not a tool', arguments: [], group: 'Support', colour: 1 }, { extra: true }));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The preview is invalid.' });
    expect(error.details.map((problem) => problem.path)).toEqual([
      'extra',
      'interceptor.name',
      'interceptor.rules[0].pattern',
      'interceptor.rules[0].message',
      'call.colour',
      'call.tool',
      'call.group',
      'call.arguments',
    ]);
    const missing = await rejection(f.preview(undefined, undefined));
    expect(missing.details.map((problem) => problem.path)).toEqual(['interceptor', 'call']);
    // A webhook is checked as creating it is: its signing secret must be stored.
    const hook = await rejection(f.preview({ name: 'policy', kind: 'webhook', phase: 'pre', url: 'https://policy.example.com/check', signingSecret: 'NO_SUCH_KEY' }, { tool: 'crm__get_contact', arguments: { id: 'c-1' } }));
    expect(hook.details).toEqual([{ path: 'interceptor.signingSecret', message: 'names no stored secret: store its value first (PUT /api/v1/secrets/NO_SUCH_KEY)' }]);
    expect(f.engines.deny.seen).toEqual([]);
  });

  it("needs a result for a post interceptor, and for a pre one arguments the tool's inputSchema takes (as a call's are checked before it)", async () => {
    const f = setup();
    const noResult = await rejection(f.preview(MASK, { tool: 'crm__get_contact' }));
    expect(noResult.details.map((problem) => problem.path)).toEqual(['call.result']);
    const badResult = await rejection(f.preview(MASK, { tool: 'crm__get_contact', result: { content: [{ text: 'no type' }, 'x'], structuredContent: [1], isError: 'yes', meta: {} } }));
    expect(badResult.details.map((problem) => problem.path)).toEqual(['call.result.meta', 'call.result.content[0]', 'call.result.content[1]', 'call.result.structuredContent', 'call.result.isError']);
    const badArguments = await rejection(f.preview({ name: 'no-x', kind: 'deny', rules: [{ message: 'No.' }] }, { tool: 'crm__get_contact', arguments: {} }));
    expect(badArguments.details).toEqual([{ path: 'call.arguments.id', message: 'is required' }]);
    expect(f.engines.deny.seen).toEqual([]);
  });

  it('tries a tool the inventory does not know as a stand-in: the name given, its source read from it, no schema', async () => {
    const f = setup();
    f.engines.deny.answer('no-x', { decision: 'deny', message: 'Not this one.' });
    const preview = await f.preview({ name: 'no-x', kind: 'deny', scope: { source: 'files' }, rules: [{ message: 'Not this one.' }] }, { tool: 'files__write', arguments: { path: '/etc/x' } });
    expect(preview).toMatchObject({
      applies: true,
      tool: { qualifiedName: 'files__write', source: 'files', known: false },
      decision: 'deny',
      refused: true,
      code: 'INTERCEPTOR_DENIED',
      message: 'Interceptor "no-x" refused the call: Not this one.',
      changes: {},
      arguments: { path: '/etc/x' },
    });
    expect(f.engines.deny.seen[0]!.call.tool).toEqual({ qualifiedName: 'files__write', name: 'write', sourceName: 'files', inputSchema: { type: 'object' }, outputSchema: null, annotations: null, description: null });
  });

  it('says why it would not apply (its scope, or disabled) and still shows what it would do', async () => {
    const f = setup();
    f.engines.redact.answer('mask-pii', MASKED);
    const call = { tool: 'crm__get_contact', arguments: { id: 'c-1' }, result: { content: [text('Write to ada@example.com')] } };
    const other = await f.preview({ ...MASK, scope: { source: 'billing' } }, call);
    expect(other).toMatchObject({ applies: false, why: 'its scope is source "billing"; crm__get_contact is a tool of "crm"', decision: 'modify' });
    expect((await f.preview({ ...MASK, scope: { tools: ['crm__list_*'] } }, call)).why).toBe('none of its tool patterns (crm__list_*) matches crm__get_contact');
    expect((await f.preview({ ...MASK, scope: { group: 'support' } }, call)).why).toBe('its scope is group "support"; the call comes through no group');
    expect(await f.preview({ ...MASK, scope: { group: 'support' } }, { ...call, group: 'support' })).toMatchObject({ applies: true });
    expect((await f.preview({ ...MASK, scope: { group: 'support' } }, { ...call, group: 'sales' })).why).toBe('its scope is group "support"; the call comes through group "sales"');
    expect(await f.preview({ ...MASK, enabled: false }, call)).toMatchObject({ applies: false, why: 'it is disabled: no call runs it', decision: 'modify' });
    expect(f.engines.redact.seen).toHaveLength(6);
  });

  it('runs the engine within the timeout, and a failure is its onError: refused with INTERCEPTOR_FAILED (deny) or let through (allow)', async () => {
    const f = setup();
    f.engines.cap.answer('slow', (_spec, _phase, _call, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))));
    const call = { tool: 'crm__get_contact', arguments: { id: 'c-1' }, result: { content: [text('x')] } };
    const started = performance.now();
    const denied = await f.preview({ name: 'slow', kind: 'cap', maxBytes: 10, timeoutMs: 50 }, call);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(denied).toMatchObject({ decision: 'error', refused: true, code: 'INTERCEPTOR_FAILED', message: 'Interceptor "slow" failed (timed out after 50 ms), so the call was refused.', result: { content: [text('x')] } });
    expect(f.engines.cap.seen[0]!.signal.aborted).toBe(true);
    const allowed = await f.preview({ name: 'slow', kind: 'cap', maxBytes: 10, timeoutMs: 50, onError: 'allow' }, call);
    expect(allowed).toMatchObject({ decision: 'error', refused: false, message: 'timed out after 50 ms' });
    expect(allowed).not.toHaveProperty('code');
  });

  it("checks the arguments a pre interceptor answers against the tool's inputSchema, as the pipeline does", async () => {
    const f = setup();
    f.engines.defaults.answer('fill', { decision: 'modify', arguments: { id: 'c-1', limit: 5 }, changes: { paths: ['arguments.limit'] } });
    const filled = await f.preview({ name: 'fill', kind: 'defaults', arguments: { limit: 5 } }, { tool: 'crm__get_contact', arguments: { id: 'c-1' } });
    expect(filled).toMatchObject({ decision: 'modify', changes: { paths: ['arguments.limit'] }, arguments: { id: 'c-1', limit: 5 } });
    expect(filled).not.toHaveProperty('result');
    f.engines.defaults.answer('drop', { decision: 'modify', arguments: {}, changes: { paths: ['arguments.id'] } });
    const dropped = await f.preview({ name: 'drop', kind: 'defaults', arguments: { limit: 5 } }, { tool: 'crm__get_contact', arguments: { id: 'c-1' } });
    expect(dropped).toMatchObject({ decision: 'error', refused: true, code: 'INTERCEPTOR_FAILED', details: [{ path: 'arguments.id', message: 'is required' }], arguments: { id: 'c-1' } });
  });

  it('tells whether the result after is a tool error: as the tool answered, unless the interceptor says otherwise', async () => {
    const f = setup();
    const call = { tool: 'crm__get_contact', arguments: { id: 'c-1' }, result: { content: [text('failed')], isError: true } };
    expect((await f.preview(MASK, call)).result).toEqual({ content: [text('failed')], isError: true });
    expect(f.engines.redact.seen[0]!.call.isError).toBe(true);
    f.engines.redact.answer('mask-pii', { decision: 'modify', result: aResult([text('fine')]), isError: false, changes: { paths: ['content[0].text'] } });
    expect((await f.preview(MASK, call)).result).toEqual({ content: [text('fine')], isError: false });
  });

  it('answers a kind no engine runs as a failure of the interceptor', async () => {
    const f = setup();
    const preview = await f.preview({ name: 'schema', kind: 'output-schema' }, { tool: 'crm__get_contact', result: { content: [] } });
    expect(preview).toMatchObject({ decision: 'error', refused: true, message: 'Interceptor "schema" failed (no engine runs interceptors of kind "output-schema"), so the call was refused.' });
  });
});
