import type { ProblemDetail } from '../../../../shared/domain-error.js';
import { aRemoteSpec, aSource, aStdioSpec } from '../../testing/builders.js';
import { aListing } from '../../testing/fake-upstream-discovery.js';
import { sourcesFixture } from '../../testing/sources-fixture.js';
import type { SourceSpecInput } from '../source-spec.js';
import { ValidateSourceHandler } from './validate-source.handler.js';
import { ValidateSourceQuery } from './validate-source.query.js';

const TOKEN = 'sk-live-0123456789abcdef';

function setup() {
  const f = sourcesFixture({ sources: [aSource({ name: 'taken' })], secrets: { TOKEN } });
  const handler = new ValidateSourceHandler(f.checker, f.sources, f.resolver, f.discovery, f.inventory, f.config, f.audit, f.uow);
  const validate = (spec: SourceSpecInput, connect = true, shapeProblems: ProblemDetail[] = []) => handler.execute(new ValidateSourceQuery(spec, shapeProblems, 'admin', connect));
  return { ...f, validate };
}

describe('ValidateSourceHandler', () => {
  it('connects once with a throwaway identity, previews the tools under the names they would get, stores nothing and audits the run', async () => {
    const f = setup();
    f.discovery.answer('preview', aListing(['echo', { name: 'add', title: 'Add', inputSchema: { type: 'object' } }]));

    const report = await f.validate(aStdioSpec({ name: 'preview', lifecycle: 'singleton' }));

    expect(report).toMatchObject({
      valid: true,
      problems: [],
      resolved: { transport: 'stdio', lifecycle: 'singleton', command: 'node', args: ['/srv/demo/server.js'], cwd: null, url: null, manifest: null },
      connection: { ok: true, protocol: { era: 'legacy', version: '2025-11-25' }, serverInfo: { name: 'fake-upstream', version: '1.0.0' } },
      tools: [
        { name: 'echo', qualifiedName: 'preview__echo' },
        { name: 'add', qualifiedName: 'preview__add', title: 'Add' },
      ],
    });
    const target = f.discovery.discoveries[0]!.target;
    expect(target.lifecycle).toBe('transient');
    expect(f.discovery.forgotten).toEqual([target.sourceId]);
    expect(f.sources.count).toBe(1);
    expect(f.tools.all()).toEqual([]);
    expect(f.audit.events).toEqual([
      {
        actor: 'admin',
        action: 'source.validated',
        targetType: 'source',
        targetId: null,
        targetName: 'preview',
        details: { transport: 'stdio', command: 'node', args: ['/srv/demo/server.js'], url: null, pluginDir: null, valid: true, problems: 0 },
      },
    ]);
  });

  it('checks without connecting or auditing when told not to connect', async () => {
    const f = setup();
    expect(await f.validate(aStdioSpec(), false)).toMatchObject({ valid: true, connection: null, tools: [] });
    expect(f.discovery.discoveries).toEqual([]);
    expect(f.audit.events).toEqual([]);
  });

  it('lists every problem, a taken name among them, and connects to nothing', async () => {
    const f = setup();
    const report = await f.validate(aStdioSpec({ name: 'taken', command: 'no-such-binary' }));
    expect(report).toMatchObject({ valid: false, connection: null, resolved: null });
    expect(report.problems.map((problem) => problem.path).sort()).toEqual(['command', 'name']);
    expect(f.discovery.discoveries).toEqual([]);
    expect(f.audit.events[0]?.details).toMatchObject({ valid: false, problems: 2 });
  });

  it('runs nothing for a body of the wrong shape, even when its connection checks out', async () => {
    const f = setup();
    const report = await f.validate(aStdioSpec(), true, [{ path: 'timeoutMs', message: 'must be an integer' }]);
    expect(report).toMatchObject({ valid: false, problems: [{ path: 'timeoutMs' }], connection: null, resolved: { command: 'node' } });
    expect(f.discovery.discoveries).toEqual([]);
  });

  it('answers a failed connection in the report, still letting go of it', async () => {
    const f = setup();
    f.discovery.answer('demo', new Error('the plugin exited with code 1'));
    const report = await f.validate(aStdioSpec());
    expect(report).toMatchObject({ valid: false, problems: [], connection: { ok: false, error: 'the plugin exited with code 1' } });
    expect(f.discovery.forgotten).toHaveLength(1);
  });

  it('connects with the secret value but answers and audits the URL masked and no value', async () => {
    const f = setup();
    const report = await f.validate(aRemoteSpec({ url: 'https://mcp.example.com/mcp?token=abc', headers: { Authorization: 'Bearer ${secret:TOKEN}' } }));
    expect(f.discovery.discoveries[0]?.target.headers).toEqual({ Authorization: `Bearer ${TOKEN}` });
    expect(report.resolved?.url).toBe('https://mcp.example.com/mcp?token=***');
    expect(f.audit.events[0]?.details).toMatchObject({ url: 'https://mcp.example.com/mcp?token=***' });
    expect(JSON.stringify([report, f.audit.events])).not.toContain(TOKEN);
  });
});
