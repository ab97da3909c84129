import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { adminQuery, withDatabase } from '../helpers/test-database.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, EVERYTHING_CALLABLE_COUNT, FIXTURES, freePort, ROOT } from '../helpers/upstreams.js';

const CLI = resolve(ROOT, 'dist/src/cli/main.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI as a user runs it: its own process, a home of its own, the server and key from the environment. */
describe('the toolplane CLI', () => {
  let h: Harness;
  let home: string;

  const baseEnv = () => ({ PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config') });

  /** Runs the CLI in the test home (no .toolplane/ there), with `input` on its standard input when given. */
  const cli = (args: string[], env: Record<string, string | undefined> = {}, input?: string): Promise<Run> =>
    new Promise((done, fail) => {
      const child = spawn(process.execPath, [CLI, ...args], {
        cwd: home,
        env: withoutUndefined({ ...baseEnv(), TOOLPLANE_URL: h.url, TOOLPLANE_API_KEY: h.adminKey, ...env }),
        stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      });
      if (input !== undefined) child.stdin!.end(input);
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', fail);
      child.once('close', (code) => done({ code, stdout, stderr }));
    });

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" first`);
    home = mkdtempSync(join(tmpdir(), 'toolplane-cli-home-'));
    h = await startHarness();
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    rmSync(home, { recursive: true, force: true });
  });

  describe('help', () => {
    it('describes the commands, the connection settings and the exit codes', async () => {
      const run = await cli(['--help']);
      expect(run.code).toBe(0);
      for (const command of ['serve', 'migrate', 'apply', 'export', 'sources', 'secrets', 'connect', 'connections', 'tools', 'groups', 'interceptors', 'reviews', 'approvals', 'call', 'executions', 'keys', 'audit', 'doctor']) {
        expect(run.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
      }
      expect(run.stdout).toContain(join(home, '.config', 'toolplane', 'cli.json'));
      expect(run.stdout).toContain('3 the server could not be reached');
    });

    it('has help for each subcommand, with its options and examples', async () => {
      const add = await cli(['sources', 'add', '--help']);
      expect(add.code).toBe(0);
      expect(add.stdout).toContain('Usage: toolplane sources add [options] <name> [command...]');
      expect(add.stdout).toContain('--mcp-url <url>');
      expect(add.stdout).toContain('Examples:');
      const call = await cli(['call', '--help']);
      expect(call.stdout).toContain('--args <json>');
      expect(call.stdout).toContain('@FILE');
      const tail = await cli(['executions', 'tail', '--help']);
      expect(tail.stdout).toContain('-f, --follow');
      const tools = await cli(['tools', '--help']);
      expect(tools.stdout).toMatch(/search \[options\] <query\.\.\.>/);
    });
  });

  describe('sources and tools', () => {
    beforeAll(async () => {
      const run = await cli(['sources', 'add', 'ev', '--lifecycle', 'singleton', '--', 'node', EVERYTHING, 'stdio']);
      expect(run).toMatchObject({ code: 0 });
      expect(run.stderr).toContain('registered ev');
      expect(run.stdout).toMatch(/^health: +healthy$/m);
    }, 60_000);

    it('lists sources as an aligned table, and as the API\'s JSON with --json', async () => {
      const table = await cli(['sources', 'ls']);
      expect(table.code).toBe(0);
      const [header, row] = table.stdout.trimEnd().split('\n');
      expect(header).toMatch(/^NAME +TRANSPORT +HEALTH +TOOLS +PINNING +LAST REFRESH +LAST ERROR$/);
      expect(row).toMatch(/^ev +stdio +healthy +\d+ /);
      expect(row!.indexOf('healthy')).toBe(header!.indexOf('HEALTH'));
      // Not a terminal: no colour codes.
      expect(table.stdout).not.toContain('\u001b[');

      const json = await cli(['sources', 'ls', '--json']);
      const page = JSON.parse(json.stdout);
      expect(page).toMatchObject({ items: [{ name: 'ev', transport: 'stdio', health: 'healthy' }], nextCursor: null });

      const one = JSON.parse((await cli(['sources', 'get', 'ev', '--json'])).stdout);
      expect(one).toMatchObject({ name: 'ev', lifecycle: 'singleton' });
    });

    it('lists, searches and shows tools', async () => {
      const table = await cli(['tools', 'ls', '--source', 'ev']);
      expect(table.code).toBe(0);
      expect(table.stdout.split('\n')[0]).toMatch(/^TOOL +SOURCE +STATE +DESCRIPTION$/);
      expect(table.stdout).toMatch(/^ev__echo +ev +enabled +/m);

      const json = JSON.parse((await cli(['--json', 'tools', 'ls', '--source', 'ev'])).stdout);
      expect(json.items).toHaveLength(EVERYTHING_CALLABLE_COUNT);

      const search = await cli(['tools', 'search', 'echo']);
      expect(search.stdout.trimEnd().split('\n')[1]).toMatch(/^ev__echo /);

      const get = await cli(['tools', 'get', 'ev__echo']);
      expect(get.stdout).toMatch(/^tool: +ev__echo$/m);
      expect(get.stdout).toContain('input schema:');
      expect(get.stdout).toContain('"message"');
    });

    it('disables and enables a tool', async () => {
      const off = await cli(['tools', 'disable', 'ev__echo']);
      expect(off).toMatchObject({ code: 0 });
      expect(off.stderr).toContain('ev__echo disabled');
      const refused = await cli(['call', 'ev__echo', '--args', '{"message": "x"}']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('error TOOL_DISABLED');
      const on = await cli(['tools', 'enable', 'ev__echo']);
      expect(on).toMatchObject({ code: 0 });
    });

    it('refreshes a source', async () => {
      const run = await cli(['sources', 'refresh', 'ev']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^added 0, changed 0, deprecated 0, restored 0, unchanged \d+$/m);
    });

    it('updates the settings an operator changes, keeping the others, and disables and enables a source', async () => {
      const before = (await h.api.get('/api/v1/sources/ev')).body;
      const update = await cli([
        'sources', 'update', 'ev',
        '--description', 'every MCP feature',
        '--timeout-ms', '50000',
        '--refresh-interval', '600',
        '--max-concurrency', '4',
        '--rate-limit', '600',
        '-e', 'GREETING=hello',
        '--read-only',
      ]);
      expect(update.code).toBe(0);
      expect(update.stderr).toContain('updated ev');
      expect(update.stdout).toMatch(/^read-only: +true$/m);
      const after = (await h.api.get('/api/v1/sources/ev')).body;
      expect(after).toMatchObject({
        description: 'every MCP feature',
        timeoutMs: 50_000,
        refreshIntervalSeconds: 600,
        maxConcurrency: 4,
        rateLimitPerMinute: 600,
        readOnly: true,
        env: [expect.objectContaining({ name: 'GREETING', origin: 'literal' })],
        // What was not named stays as it was.
        lifecycle: before.lifecycle,
        command: before.command,
        args: before.args,
      });
      const back = await cli(['sources', 'update', 'ev', '--no-read-only', '--no-rate-limit', '--json']);
      expect(back.code).toBe(0);
      expect(JSON.parse(back.stdout)).toMatchObject({ name: 'ev', readOnly: false, rateLimitPerMinute: null, timeoutMs: 50_000 });

      const off = await cli(['sources', 'disable', 'ev']);
      expect(off).toMatchObject({ code: 0 });
      expect(off.stderr).toContain('disabled ev');
      expect((await h.api.get('/api/v1/sources/ev')).body.enabled).toBe(false);
      expect((await cli(['sources', 'ls'])).stdout).toMatch(/^ev +stdio +disabled /m);
      const on = await cli(['sources', 'enable', 'ev']);
      expect(on).toMatchObject({ code: 0 });
      expect(on.stderr).toContain('enabled ev');
      expect((await h.api.get('/api/v1/sources/ev')).body).toMatchObject({ enabled: true, health: 'healthy' });

      const nothing = await cli(['sources', 'update', 'ev']);
      expect(nothing.code).toBe(2);
      expect(nothing.stderr).toContain('nothing to change');
      const invalid = await cli(['sources', 'update', 'ev', '--timeout-ms', '5']);
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toMatch(/^error VALIDATION_FAILED: /m);
      expect(invalid.stderr).toMatch(/^ {2}- timeoutMs: /m);
      const unknown = await cli(['sources', 'disable', 'no-such-source']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/^error SOURCE_NOT_FOUND: /m);
    });

    it('reports every problem of a refused registration, with its code', async () => {
      const run = await cli(['sources', 'add', 'Bad_Name', '--timeout-ms', '5', '--', 'no-such-command-here']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^error VALIDATION_FAILED: /m);
      expect(run.stderr).toMatch(/^ {2}- name: /m);
      expect(run.stderr).toMatch(/^ {2}- command: /m);
      const usage = await cli(['sources', 'add', 'nothing']);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('say how to reach the source');
    });
  });

  describe('calls and executions', () => {
    it('calls a tool with --args as JSON and as @file, and shows the execution', async () => {
      const inline = await cli(['call', 'ev__echo', '--args', '{"message": "hello from the cli"}']);
      expect(inline).toMatchObject({ code: 0, stdout: 'Echo: hello from the cli\n' });
      expect(inline.stderr).toMatch(/^succeeded in [\d.]+ ms \(execution [0-9a-f-]{36}\)\n$/);

      const file = join(home, 'args.json');
      writeFileSync(file, '{"message": "from a file"}');
      const fromFile = await cli(['call', 'ev__echo', '--args', `@${file}`, '--json']);
      expect(fromFile.code).toBe(0);
      const execution = JSON.parse(fromFile.stdout);
      expect(execution).toMatchObject({ status: 'succeeded', qualifiedName: 'ev__echo', arguments: { message: 'from a file' } });

      const get = await cli(['executions', 'get', execution.id]);
      expect(get.code).toBe(0);
      expect(get.stdout).toMatch(/^status: +succeeded$/m);
      expect(get.stdout).toContain('"from a file"');
      expect(JSON.parse((await cli(['executions', 'get', execution.id, '--json'])).stdout)).toMatchObject({ id: execution.id });

      const list = await cli(['executions', 'ls', '--tool', 'ev__echo', '--limit', '1']);
      expect(list.stdout.split('\n')[0]).toMatch(/^STARTED +STATUS +TOOL +DURATION +CALLER +ERROR +ID$/);
      expect(list.stdout).toContain(execution.id);
      expect(list.stderr).toMatch(/more: repeat with --cursor \S+/);
    });

    it('shows the upstream\'s progress while a call runs', async () => {
      const run = await cli(['call', 'ev__trigger-long-running-operation', '--args', '{"duration": 0.6, "steps": 3}']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Long running operation completed');
      // Not a terminal here: each notification is a plain line on stderr, before the outcome.
      expect(run.stderr).toMatch(/^progress 1\/3\nprogress 2\/3\nprogress 3\/3\nsucceeded in [\d.]+ (ms|s) \(execution [0-9a-f-]{36}\)\n$/);
    });

    it('calls with --async, then waits for the call with its progress, or cancels one', async () => {
      const started = await cli(['call', 'ev__trigger-long-running-operation', '--args', '{"duration": 2, "steps": 4}', '--async']);
      expect(started.code).toBe(0);
      const id = started.stdout.trim();
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(started.stderr).toContain(`working: the call runs on; follow it with toolplane executions wait ${id}`);
      const waited = await cli(['executions', 'wait', id]);
      expect(waited.code).toBe(0);
      expect(waited.stdout).toContain('Long running operation completed');
      // Its status when the CLI came, then the progress from then on, then the outcome.
      expect(waited.stderr).toMatch(/^working\n(progress [1-3]\/4\n)*progress 4\/4\nsucceeded in [\d.]+ (ms|s) \(execution [0-9a-f-]{36}\)\n$/);
      // A call that already ended: its result at once.
      expect((await cli(['executions', 'wait', id, '--json'])).stdout).toContain('"status": "succeeded"');

      const slow = await cli(['call', 'ev__trigger-long-running-operation', '--args', '{"duration": 30, "steps": 30}', '--async', '--json']);
      const slowId = JSON.parse(slow.stdout).id as string;
      expect(JSON.parse(slow.stdout).status).toBe('working');
      const cancelled = await cli(['executions', 'cancel', slowId]);
      expect(cancelled.code).toBe(0);
      expect(cancelled.stderr).toContain(`cancellation asked: execution ${slowId}`);
      const ended = await cli(['executions', 'wait', slowId]);
      expect(ended.code).toBe(1);
      expect(ended.stderr).toMatch(/CANCELLED: (.|\n)*cancelled in/);
      const again = await cli(['executions', 'cancel', slowId]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('EXECUTION_FINISHED');
    }, 30_000);

    it('prints the error code and every problem, with distinct exit codes', async () => {
      const unknown = await cli(['call', 'ev__no_such_tool']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/^error TOOL_NOT_FOUND: /m);
      expect(unknown.stderr).toMatch(/execution [0-9a-f-]{36} \(rejected\)/);

      const badArgs = await cli(['call', 'ev__echo', '--args', '{"message": 5}']);
      expect(badArgs.code).toBe(1);
      expect(badArgs.stderr).toMatch(/^error INVALID_ARGUMENTS: /m);
      expect(badArgs.stderr).toMatch(/^ {2}- arguments\.message: must be string$/m);

      const badArgsJson = await cli(['call', 'ev__echo', '--args', '{"message": 5}', '--json']);
      expect(JSON.parse(badArgsJson.stdout)).toMatchObject({ error: { code: 'INVALID_ARGUMENTS' }, execution: { status: 'invalid_arguments' } });

      const invalidJson = await cli(['call', 'ev__echo', '--args', '{message: hi}']);
      expect(invalidJson.code).toBe(2);
      expect(invalidJson.stderr).toMatch(/^error: --args is not valid JSON/m);

      const notAnObject = await cli(['call', 'ev__echo', '--args', '[1]']);
      expect(notAnObject.code).toBe(2);

      const missingFile = await cli(['call', 'ev__echo', '--args', '@/nonexistent/args.json']);
      expect(missingFile.code).toBe(2);
      expect(missingFile.stderr).toContain('ENOENT');

      const unknownOption = await cli(['sources', 'ls', '--no-such-option']);
      expect(unknownOption.code).toBe(2);
      expect(unknownOption.stderr).toContain("unknown option '--no-such-option'");

      const badLimit = await cli(['executions', 'ls', '--limit', 'lots']);
      expect(badLimit.code).toBe(2);

      const port = await freePort();
      const unreachable = await cli(['sources', 'ls'], { TOOLPLANE_URL: `http://127.0.0.1:${port}` });
      expect(unreachable.code).toBe(3);
      expect(unreachable.stderr).toContain(`cannot reach Toolplane at http://127.0.0.1:${port}`);

      const wrongKey = await cli(['sources', 'ls'], { TOOLPLANE_API_KEY: 'not-a-key-at-all-0000' });
      expect(wrongKey.code).toBe(1);
      expect(wrongKey.stderr).toMatch(/^error INVALID_API_KEY: /m);
    });

    it('tail -f prints a call made after it started, and ends cleanly on Ctrl-C', async () => {
      const child = spawn(process.execPath, [CLI, 'executions', 'tail', '-f', '-n', '1', '--interval', '200'], {
        env: { ...baseEnv(), TOOLPLANE_URL: h.url, TOOLPLANE_API_KEY: h.adminKey },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        let stdout = '';
        child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        const closed = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
        await waitFor(() => stdout.includes('\n'), 10_000, () => `tail printed nothing: ${stdout}`);
        const call = await h.api.post('/api/v1/tools/ev__echo/invoke', { arguments: { message: 'while tailing' } });
        expect(call.status).toBe(200);
        await waitFor(() => stdout.includes(call.body.id), 10_000, () => `tail did not print ${call.body.id}:\n${stdout}`);
        expect(stdout).toMatch(new RegExp(`succeeded +ev__echo .*${call.body.id}`));
        // Printed once, even though later polls see it again.
        await new Promise((r) => setTimeout(r, 500));
        expect(stdout.split(call.body.id).length).toBe(2);
        child.kill('SIGINT');
        expect(await closed).toBe(0);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    });
  });

  describe('secrets', () => {
    it('puts a secret from standard input (never echoed), lists it without its value and removes it', async () => {
      const put = await cli(['secrets', 'put', 'CLI_TOKEN'], {}, 's3cret-from-stdin\n');
      expect(put.code).toBe(0);
      expect(put.stderr).toContain('created secret CLI_TOKEN');
      expect(put.stdout + put.stderr).not.toContain('s3cret-from-stdin');

      // The value as a source gets it (its length: results never show it): the line break that ends the input is not part of it.
      const user = await h.api.post('/api/v1/sources?wait=true', {
        name: 'secret-user',
        transport: 'stdio',
        command: 'node',
        args: [join(FIXTURES, 'hostile-server.mjs')],
        env: { HOSTILE_TOOLS: 'env_length', TOKEN: '${secret:CLI_TOKEN}' },
      });
      expect(user.status).toBe(201);
      try {
        const length = await cli(['call', 'secret-user__env_length', '--args', '{"name": "TOKEN"}']);
        expect(length).toMatchObject({ code: 0, stdout: `${'s3cret-from-stdin'.length}\n` });
      } finally {
        expect((await h.api.delete('/api/v1/sources/secret-user')).status).toBe(204);
      }

      const replaced = await cli(['secrets', 'put', 'CLI_TOKEN'], {}, 'another value');
      expect(replaced.code).toBe(0);
      expect(replaced.stderr).toContain('replaced secret CLI_TOKEN');

      const list = await cli(['secrets', 'ls']);
      expect(list.code).toBe(0);
      expect(list.stdout.split('\n')[0]).toMatch(/^NAME +CREATED +UPDATED$/);
      expect(list.stdout).toMatch(/^CLI_TOKEN +\d{4}-/m);
      expect(list.stdout).not.toContain('another value');
      const page = JSON.parse((await cli(['secrets', 'ls', '--json'])).stdout);
      expect(page.items).toEqual([expect.objectContaining({ name: 'CLI_TOKEN' })]);

      const removed = await cli(['secrets', 'rm', 'CLI_TOKEN']);
      expect(removed.code).toBe(0);
      expect(removed.stderr).toContain('removed secret CLI_TOKEN');
      const gone = await cli(['secrets', 'rm', 'CLI_TOKEN']);
      expect(gone.code).toBe(1);
      expect(gone.stderr).toMatch(/^error SECRET_NOT_FOUND: /m);
    });

    it('refuses an empty value, and warns when the value is given on the command line', async () => {
      const empty = await cli(['secrets', 'put', 'EMPTY']);
      expect(empty.code).toBe(2);
      expect(empty.stderr).toMatch(/no value/);
      expect(JSON.parse((await cli(['secrets', 'ls', '--json'])).stdout).items).not.toContainEqual(expect.objectContaining({ name: 'EMPTY' }));

      const inline = await cli(['secrets', 'put', 'INLINE', '--value', 'v']);
      expect(inline.code).toBe(0);
      expect(inline.stderr).toMatch(/^warning: .*shell's history/m);
      expect((await cli(['secrets', 'rm', 'INLINE'])).code).toBe(0);
    });
  });

  describe('text from a hostile upstream', () => {
    // What the fixture's title, description, progress, result and errors carry (TERMINAL_ATTACK in hostile-server.mjs).
    const ATTACK = '\u001b]52;c;cHduZWQ=\u0007\u001b]0;title\u0007\u001b[2J\u009b2J\u202e';
    // How the CLI shows it: every control as a visible escape.
    const SHOWN = '\\x1b]52;c;cHduZWQ=\\x07\\x1b]0;title\\x07\\x1b[2J\\x9b2J\\u202e';
    // A long name (qualified names stay within 64 characters), so that tool names differ in length by more than a column's width.
    const SOURCE = 'hostile-upstream-with-a-long-name';
    const TOOL = `${SOURCE}__terminal_text`;
    // eslint-disable-next-line no-control-regex -- the controls are what this looks for
    const TERMINAL_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
    const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
    const expectHarmless = (run: Run) => {
      expect(run.stdout).not.toMatch(TERMINAL_CONTROLS);
      expect(run.stderr).not.toMatch(TERMINAL_CONTROLS);
    };
    let agentExecution: string;

    beforeAll(async () => {
      const registered = await h.api.post('/api/v1/sources?wait=true', {
        name: SOURCE,
        transport: 'stdio',
        command: 'node',
        args: [join(FIXTURES, 'hostile-server.mjs')],
        env: { HOSTILE_TOOLS: 'terminal_text,terminal_error,terminal_tool_error' },
        // Its texts carry a right-to-left override, which the definition scan holds for review otherwise.
        pinning: 'off',
      });
      expect(registered.status).toBe(201);
      expect(registered.body).toMatchObject({ health: 'healthy', toolCount: 3 });
      // An agent whose client name carries the attack calls the tool over MCP.
      const client = new Client({ name: `agent ${ATTACK}`, version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${h.adminKey}` } } }));
      try {
        await client.callTool({ name: TOOL, arguments: {} });
      } finally {
        await client.close();
      }
      const latest = (await h.api.get(`/api/v1/executions?tool=${TOOL}&limit=1`)).body.items[0];
      expect(latest.caller.clientName).toBe(`agent ${ATTACK}`);
      agentExecution = latest.id;
    }, 60_000);

    it('lists and shows its tools with every control visible and harmless; --json keeps the values', async () => {
      const list = await cli(['tools', 'ls', '--source', SOURCE]);
      expect(list.code).toBe(0);
      expectHarmless(list);
      expect(list.stdout).toContain(`${TOOL}  `);
      expect(list.stdout).toContain('Title \\x1b]52;c;cHduZWQ=\\x07');

      const get = await cli(['tools', 'get', TOOL]);
      expect(get.code).toBe(0);
      expectHarmless(get);
      expect(get.stdout).toMatch(/^title: +Title \\x1b\]52;c;cHduZWQ=\\x07\\x1b\]0;title\\x07\\x1b\[2J\\x9b2J\\u202e$/m);
      // A multi-line description goes on under its value, never as a line of its own.
      expect(get.stdout).toMatch(/^description: +Description \\x1b.*\n +second line$/m);

      const json = await cli(['tools', 'get', TOOL, '--json']);
      expect(json.stdout).not.toMatch(RAW_IN_JSON);
      expect(JSON.parse(json.stdout)).toMatchObject({ title: `Title ${ATTACK}`, description: `Description ${ATTACK}\nsecond line` });
    });

    it('prints a call\'s result, its progress, a tool\'s error and the upstream\'s error harmless', async () => {
      const call = await cli(['call', TOOL]);
      expect(call.code).toBe(0);
      expectHarmless(call);
      // The text's own lines and tabs stay.
      expect(call.stdout).toBe(`Result ${SHOWN}\nsecond\tline\n`);
      expect(call.stderr).toContain(`progress 1/2: step ${SHOWN}\n`);
      const asJson = await cli(['call', TOOL, '--json']);
      expect(asJson.stdout).not.toMatch(RAW_IN_JSON);
      expect(JSON.parse(asJson.stdout).result.content[0].text).toBe(`Result ${ATTACK}\r\nsecond\tline\n`);

      const toolError = await cli(['call', `${SOURCE}__terminal_tool_error`]);
      expect(toolError.code).toBe(4);
      expectHarmless(toolError);
      expect(toolError.stdout).toBe(`Failure ${SHOWN}\n`);

      const upstreamError = await cli(['call', `${SOURCE}__terminal_error`]);
      expect(upstreamError.code).toBe(1);
      expectHarmless(upstreamError);
      expect(upstreamError.stderr).toContain(`Upstream error ${SHOWN}`);
      const errorJson = await cli(['call', `${SOURCE}__terminal_error`, '--json']);
      expect(errorJson.stdout).not.toMatch(RAW_IN_JSON);
      expect(JSON.parse(errorJson.stdout).error.message).toContain(`Upstream error ${ATTACK}`);
    });

    it('shows the executions harmless: the list, a call with the agent\'s client name, the tail with its columns aligned', async () => {
      const list = await cli(['executions', 'ls', '--source', SOURCE]);
      expect(list.code).toBe(0);
      expectHarmless(list);

      const get = await cli(['executions', 'get', agentExecution]);
      expect(get.code).toBe(0);
      expectHarmless(get);
      expect(get.stdout).toMatch(/^caller: +admin \(agent \\x1b\]52;c;cHduZWQ=\\x07\\x1b\]0;title\\x07\\x1b\[2J\\x9b2J\\u202e\)$/m);
      const getJson = await cli(['executions', 'get', agentExecution, '--json']);
      expect(getJson.stdout).not.toMatch(RAW_IN_JSON);
      expect(JSON.parse(getJson.stdout).caller.clientName).toBe(`agent ${ATTACK}`);

      const failed = (await h.api.get(`/api/v1/executions?tool=${SOURCE}__terminal_error&limit=1`)).body.items[0];
      const failedGet = await cli(['executions', 'get', failed.id]);
      expectHarmless(failedGet);
      expect(failedGet.stdout).toMatch(/^error: +[A-Z_]+: .*Upstream error \\x1b\]52;c;/m);

      const tail = await cli(['executions', 'tail', '-n', '30']);
      expect(tail.code).toBe(0);
      expectHarmless(tail);
      const [header, ...rows] = tail.stdout.trimEnd().split('\n');
      expect(header).toMatch(/^STARTED +STATUS +TOOL +DURATION +CALLER +ERROR +ID$/);
      expect(rows.some((row) => row.includes(`${SOURCE}__`.slice(0, 20)))).toBe(true);
      expect(rows.some((row) => row.includes('ev__echo '))).toBe(true);
      expect(rows.some((row) => /UPSTREAM|TOOL_NOT_FOUND|INVALID_ARGUMENTS/.test(row))).toBe(true);
      for (const row of rows) {
        // Every column starts under its header, whatever the lengths of the names and codes before it.
        for (const column of ['STATUS', 'TOOL', 'CALLER', 'ID']) {
          const at = header!.indexOf(column);
          expect({ row, column, before: row[at - 1], first: row[at] }).toEqual({ row, column, before: ' ', first: expect.stringMatching(/\S/) });
        }
        expect(row.slice(header!.indexOf('ID'))).toMatch(/^[0-9a-f-]{36}$/);
      }
      const tailJson = await cli(['executions', 'tail', '-n', '30', '--json']);
      expect(tailJson.stdout).not.toMatch(RAW_IN_JSON);
      expect(tailJson.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).id)).toContain(agentExecution);
    });
  });

  describe('groups', () => {
    it('applies a group from a YAML file, lists it, shows the tools it serves under their names, and removes it', async () => {
      const file = join(home, 'support.yaml');
      writeFileSync(file, stringifyYaml({ name: 'support', description: 'The support bot', include: ['ev__echo', 'ev__get-sum'], overrides: { ev__echo: { name: 'say', locked: { message: 'fixed' } } } }));
      const created = await cli(['groups', 'apply', '-f', file]);
      expect(created).toMatchObject({ code: 0 });
      expect(created.stderr).toContain('created group support: served at /mcp/groups/support');
      expect((await cli(['groups', 'apply', '-f', file])).stderr).toContain('unchanged group support');

      const table = await cli(['groups', 'ls']);
      expect(table.stdout.split('\n')[0]).toMatch(/^NAME +MCP +DESCRIPTION +UPDATED$/);
      expect(table.stdout).toMatch(/^support +\/mcp\/groups\/support +The support bot /m);

      const shown = await cli(['groups', 'get', 'support']);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(/^Overrides: +ev__echo$/m);
      expect(shown.stdout).toMatch(/^say /m);
      expect(shown.stdout).toMatch(/^get-sum /m);
      const json = JSON.parse((await cli(['groups', 'get', 'support', '--json'])).stdout);
      expect(json.tools.map((t: { name: string }) => t.name).sort()).toEqual(['get-sum', 'say']);
      expect(json.tools.find((t: { name: string }) => t.name === 'say').inputSchema.properties).not.toHaveProperty('message');

      // What the file leaves out goes back to its default: the description is gone.
      writeFileSync(file, stringifyYaml({ name: 'support', include: ['ev__echo'] }));
      expect((await cli(['groups', 'apply', '-f', file])).stderr).toContain('updated group support');
      expect(JSON.parse((await cli(['groups', 'get', 'support', '--json'])).stdout)).toMatchObject({ description: '', include: ['ev__echo'], overrides: {}, tools: [{ name: 'echo' }] });

      writeFileSync(file, stringifyYaml({ name: 'Bad Name', include: ['nope'] }));
      const refused = await cli(['groups', 'apply', '-f', file]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error VALIDATION_FAILED: /m);
      expect(refused.stderr).toContain('name:');

      expect((await cli(['groups', 'rm', 'support'])).stderr).toContain('removed group support');
      const gone = await cli(['groups', 'get', 'support']);
      expect(gone.code).toBe(1);
      expect(gone.stderr).toMatch(/^error GROUP_NOT_FOUND: /m);
    });
  });

  describe('interceptors', () => {
    it('applies an interceptor from a YAML file, lists and shows it, makes it exactly what a changed file declares, and removes it', async () => {
      const file = join(home, 'no-etc.yaml');
      const declared = { name: 'no-etc', description: 'Keeps agents out of /etc', kind: 'deny', order: 5, scope: { tools: ['fs__*'] }, rules: [{ argument: 'path', pathUnder: '/etc', message: 'Off limits.' }] };
      writeFileSync(file, stringifyYaml(declared));
      const created = await cli(['interceptors', 'apply', '-f', file]);
      expect(created).toMatchObject({ code: 0 });
      expect(created.stderr).toContain('created interceptor no-etc: deny, pre, order 5');
      expect((await cli(['interceptors', 'apply', '-f', file])).stderr).toContain('unchanged interceptor no-etc');

      const table = await cli(['interceptors', 'ls']);
      expect(table.stdout.split('\n')[0]).toMatch(/^NAME +KIND +PHASE +ORDER +SCOPE +ENABLED +UPDATED$/);
      expect(table.stdout).toMatch(/^no-etc +deny +pre +5 +tools fs__\* +yes /m);

      const shown = await cli(['interceptors', 'get', 'no-etc']);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(/^Scope: +tools fs__\*$/m);
      expect(shown.stdout).toMatch(/^rules: +\[\{"argument":"path","pathUnder":"\/etc","message":"Off limits."\}\]$/m);
      expect(JSON.parse((await cli(['interceptors', 'get', 'no-etc', '--json'])).stdout)).toMatchObject({ ...declared, phase: 'pre', version: 1 });

      // What the file leaves out goes back to its default: the description, the order, the scope.
      writeFileSync(file, stringifyYaml({ name: 'no-etc', kind: 'deny', rules: declared.rules, enabled: false }));
      expect((await cli(['interceptors', 'apply', '-f', file])).stderr).toContain('updated interceptor no-etc: deny, pre, order 0 (disabled)');
      expect(JSON.parse((await cli(['interceptors', 'get', 'no-etc', '--json'])).stdout)).toMatchObject({ description: '', order: 0, scope: {}, enabled: false, version: 2 });
      // Another kind: the old kind's settings are gone.
      writeFileSync(file, stringifyYaml({ name: 'no-etc', kind: 'cap', maxBytes: 4096 }));
      expect((await cli(['interceptors', 'apply', '-f', file])).stderr).toContain('updated interceptor no-etc: cap, post, order 0');
      expect(JSON.parse((await cli(['interceptors', 'get', 'no-etc', '--json'])).stdout)).not.toHaveProperty('rules');

      writeFileSync(file, stringifyYaml({ name: 'Bad Name', kind: 'deny', rules: [{ pattern: '(', message: 'x' }] }));
      const refused = await cli(['interceptors', 'apply', '-f', file]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error VALIDATION_FAILED: /m);
      expect(refused.stderr).toContain('name:');
      expect(refused.stderr).toContain('rules[0].pattern:');

      expect((await cli(['interceptors', 'rm', 'no-etc'])).stderr).toContain('removed interceptor no-etc');
      const gone = await cli(['interceptors', 'get', 'no-etc']);
      expect(gone.code).toBe(1);
      expect(gone.stderr).toMatch(/^error INTERCEPTOR_NOT_FOUND: /m);
      expect((await cli(['interceptors', 'ls'])).stderr).toContain('no interceptors');
    });
  });

  describe('keys and audit', () => {
    it('creates, lists and revokes a key', async () => {
      const created = await cli(['keys', 'create', 'cli-agent', '--role', 'agent', '--owner', 'team cli']);
      expect(created.code).toBe(0);
      const key = created.stdout.trim();
      expect(key).toMatch(/^tp_\S+$/);
      expect(created.stderr).toContain('shown only this once');

      const asAgent = await cli(['tools', 'ls', '--json'], { TOOLPLANE_API_KEY: key });
      expect(asAgent.code).toBe(0);
      const forbidden = await cli(['keys', 'ls'], { TOOLPLANE_API_KEY: key });
      expect(forbidden.code).toBe(1);
      expect(forbidden.stderr).toMatch(/^error FORBIDDEN: /m);

      const page = JSON.parse((await cli(['keys', 'ls', '--json'])).stdout);
      const mine = page.items.find((k: { name: string }) => k.name === 'cli-agent');
      expect(mine).toMatchObject({ role: 'agent', state: 'active', owner: 'team cli' });
      const table = await cli(['keys', 'ls']);
      expect(table.stdout).toMatch(new RegExp(`^${mine.id} +cli-agent +agent +active `, 'm'));

      const revoked = await cli(['keys', 'revoke', mine.id]);
      expect(revoked.code).toBe(0);
      expect(revoked.stderr).toContain(`revoked cli-agent (${mine.id})`);
      const refused = await cli(['tools', 'ls'], { TOOLPLANE_API_KEY: key });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error [A-Z_]+: /m);

      const missing = await cli(['keys', 'create', 'no-role']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain("required option '-r, --role <role>' not specified");
    });

    it('lists audit events and verifies both chains', async () => {
      const list = await cli(['audit', 'ls', '--action', 'source.registered']);
      expect(list.code).toBe(0);
      expect(list.stdout.split('\n')[0]).toMatch(/^SEQ +TIME +ACTOR +ACTION +TARGET +CLIENT$/);
      expect(list.stdout).toMatch(/ admin +source\.registered +source ev /);

      const verify = await cli(['audit', 'verify']);
      expect(verify.code).toBe(0);
      expect(verify.stdout).toMatch(/^audit trail +intact /m);
      expect(verify.stdout).toMatch(/^executions +intact /m);
      const json = JSON.parse((await cli(['audit', 'verify', '--json'])).stdout);
      expect(json).toMatchObject({ audit: { intact: true }, executions: { intact: true } });
    });
  });

  describe('doctor', () => {
    it('passes against a healthy Toolplane, naming the key\'s role', async () => {
      const run = await cli(['doctor']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^✓ server +.* is ready$/m);
      expect(run.stdout).toMatch(/^✓ database +answers in [\d.]+ ms$/m);
      expect(run.stdout).toMatch(/^✓ migrations +\d+ applied, none pending$/m);
      expect(run.stdout).toMatch(/^✓ api key +accepted: \S+, role admin \(may: .*keys:manage/m);
      expect(run.stdout).toMatch(/^✓ sandbox +stdio plugins run in a bubblewrap sandbox /m);
      expect(run.stdout).toMatch(/^✓ source ev +healthy, \d+ tools$/m);
      expect(run.stdout).toContain('no problem found');
      const json = JSON.parse((await cli(['doctor', '--json'])).stdout);
      expect(json.ok).toBe(true);
    });

    it('fails with what to fix: a wrong key, an unhealthy source, an unreachable server', async () => {
      const wrongKey = await cli(['doctor'], { TOOLPLANE_API_KEY: 'wrong-key-0000000000' });
      expect(wrongKey.code).toBe(1);
      expect(wrongKey.stdout).toMatch(/^✗ api key +refused: INVALID_API_KEY: /m);
      expect(wrongKey.stdout).toMatch(/^ +fix: use a valid, unrevoked, unexpired key/m);
      expect(wrongKey.stdout).toContain('1 check failed');
      expect(wrongKey.stdout).not.toContain('(s)');

      const broken = await h.api.post('/api/v1/sources?wait=true', { name: 'broken', transport: 'stdio', command: 'node', args: ['-e', 'process.exit(3)'] });
      expect(broken.status).toBe(201);
      try {
        const run = await cli(['doctor']);
        expect(run.code).toBe(1);
        expect(run.stdout).toMatch(/^✗ source broken +unhealthy/m);
        expect(run.stdout).toMatch(/fix: "toolplane sources get broken" shows the details/);
      } finally {
        expect((await cli(['sources', 'rm', 'broken'])).code).toBe(0);
      }

      const port = await freePort();
      const unreachable = await cli(['doctor'], { TOOLPLANE_URL: `http://127.0.0.1:${port}` });
      expect(unreachable.code).toBe(3);
      expect(unreachable.stdout).toMatch(/^✗ server +cannot reach Toolplane/m);
      expect(unreachable.stdout).toMatch(/fix: start Toolplane/);
    });

    it('fails the sandbox check, saying why and how to fix it, when the server runs plugins without one', async () => {
      const peer = await h.startPeer({ TOOLPLANE_SANDBOX_BWRAP: '/nonexistent/bwrap' });
      try {
        const run = await cli(['doctor', '--url', peer.url]);
        expect(run.code).toBe(1);
        expect(run.stdout).toMatch(/^✗ sandbox +stdio plugins run WITHOUT a sandbox: \/nonexistent\/bwrap not found/m);
        expect(run.stdout).toMatch(/^ +fix: install bubblewrap on the server \(apt-get install bubblewrap\) and restart Toolplane$/m);
        expect(run.stdout).toMatch(/^1 check failed$/m);
        const json = JSON.parse((await cli(['doctor', '--url', peer.url, '--json'])).stdout);
        expect(json.checks).toContainEqual({ name: 'sandbox', status: 'fail', detail: expect.stringContaining("plugins run as Toolplane's own user"), fix: expect.stringContaining('bubblewrap') });
      } finally {
        await peer.close();
      }
    });
  });

  describe('doctor, for a source whose process crashed', () => {
    it('prints one line per failed check with its reason, never a stack trace', async () => {
      const crashing = await h.api.post('/api/v1/sources?wait=true', { name: 'crashing', transport: 'stdio', command: 'node', args: ['-e', "throw new Error('boom')"] });
      expect(crashing.status).toBe(201);
      try {
        const lastError: string = (await h.api.get('/api/v1/sources/crashing')).body.lastError;
        // The upstream's own account has the trace: the detail view keeps it, the check does not.
        expect(lastError).toMatch(/^\s+at /m);
        const run = await cli(['doctor']);
        expect(run.code).toBe(1);
        const lines = run.stdout.split('\n');
        const at = lines.findIndex((line) => line.startsWith('✗ source crashing '));
        expect(lines[at]).toMatch(/^✗ source crashing +unhealthy \(1 failure in a row\): process exited with code 1: .*Error: boom$/);
        expect(lines[at + 1]).toMatch(/^ +fix: "toolplane sources get crashing" shows the details/);
        expect(lines[at + 2]).toMatch(/^(✓|!|✗|-) |^1 check failed$/);
        expect(run.stdout).not.toMatch(/^\s+at /m);
        expect(run.stdout).toMatch(/^1 check failed$/m);
        const get = await cli(['sources', 'get', 'crashing']);
        expect(get.stdout).toContain('Error: boom');
      } finally {
        expect((await h.api.delete('/api/v1/sources/crashing')).status).toBe(204);
      }
    });
  });

  describe('connection settings', () => {
    it('says how to give a key when the server asks for one, not how to send HTTP headers', async () => {
      const noKey = await cli(['sources', 'ls'], { TOOLPLANE_API_KEY: undefined });
      expect(noKey.code).toBe(1);
      expect(noKey.stderr).toMatch(/^error UNAUTHENTICATED: /m);
      expect(noKey.stderr).toContain('no API key was given');
      expect(noKey.stderr).toContain('--key');
      expect(noKey.stderr).toContain('TOOLPLANE_API_KEY');
      expect(noKey.stderr).toContain(join(home, '.config', 'toolplane', 'cli.json'));
      expect(noKey.stderr).toContain(join(home, '.toolplane', 'admin.key'));
      expect(noKey.stderr).not.toMatch(/Authorization|Bearer/);

      const wrongKey = await cli(['sources', 'ls'], { TOOLPLANE_API_KEY: 'not-a-key-at-all-1111' });
      expect(wrongKey.code).toBe(1);
      expect(wrongKey.stderr).toMatch(/^error INVALID_API_KEY: /m);
      expect(wrongKey.stderr).toContain('the key comes from the environment; give another with --key KEY');

      const doctor = await cli(['doctor'], { TOOLPLANE_API_KEY: undefined });
      expect(doctor.stdout).toMatch(/^✗ api key +no API key given$/m);
      expect(doctor.stdout).toContain(join(home, '.toolplane', 'admin.key'));
    });

    it('uses the admin key of the data directory for a Toolplane on this host when no key is given', async () => {
      const data = mkdtempSync(join(tmpdir(), 'toolplane-cli-data-'));
      try {
        writeFileSync(join(data, 'admin.key'), `${h.adminKey}\n`, { mode: 0o600 });
        const run = await cli(['sources', 'ls', '--json'], { TOOLPLANE_API_KEY: undefined, TOOLPLANE_DATA_DIR: data });
        expect(run.code).toBe(0);
        const doctor = await cli(['doctor'], { TOOLPLANE_API_KEY: undefined, TOOLPLANE_DATA_DIR: data });
        expect(doctor.stdout).toMatch(/^✓ api key +accepted: /m);
        expect(doctor.stdout).toContain(`(key from ${join(data, 'admin.key')})`);
      } finally {
        rmSync(data, { recursive: true, force: true });
      }
    });

    it('reads the config file under XDG_CONFIG_HOME; the environment and flags win over it', async () => {
      const config = mkdtempSync(join(tmpdir(), 'toolplane-cli-xdg-'));
      try {
        mkdirSync(join(config, 'toolplane'));
        writeFileSync(join(config, 'toolplane', 'cli.json'), JSON.stringify({ url: h.url, key: h.adminKey }), { mode: 0o600 });
        const fromFile = await cli(['sources', 'ls', '--json'], { XDG_CONFIG_HOME: config, TOOLPLANE_URL: undefined, TOOLPLANE_API_KEY: undefined });
        expect(fromFile.code).toBe(0);
        const envWins = await cli(['sources', 'ls'], { XDG_CONFIG_HOME: config, TOOLPLANE_URL: undefined, TOOLPLANE_API_KEY: 'wrong-key-1111111111' });
        expect(envWins.code).toBe(1);
        const flagWins = await cli(['sources', 'ls', '--key', h.adminKey], { XDG_CONFIG_HOME: config, TOOLPLANE_URL: undefined, TOOLPLANE_API_KEY: 'wrong-key-1111111111' });
        expect(flagWins.code).toBe(0);
        writeFileSync(join(config, 'toolplane', 'cli.json'), '{"url": ');
        const broken = await cli(['sources', 'ls'], { XDG_CONFIG_HOME: config });
        expect(broken.code).toBe(2);
        expect(broken.stderr).toContain('cli.json is not valid JSON');
      } finally {
        rmSync(config, { recursive: true, force: true });
      }
    });
  });

  describe('config as code', () => {
    it('exports the sources as YAML, and applies a file: dry run, changes, problems and their exit codes', async () => {
      const file = join(home, 'toolplane.yaml');
      const exported = await cli(['export', '-o', file]);
      expect(exported.code).toBe(0);
      const document = parseYaml(readFileSync(file, 'utf8')) as { sources: Record<string, unknown>[] };
      const ev = document.sources.find((source) => source.name === 'ev');
      expect(ev).toMatchObject({ transport: 'stdio', lifecycle: 'singleton', command: 'node', args: [EVERYTHING, 'stdio'] });
      expect((await cli(['export'])).stdout).toBe(readFileSync(file, 'utf8'));

      const same = await cli(['apply', '-f', file, '--dry-run']);
      expect(same.code).toBe(0);
      expect(same.stdout).toMatch(/^source +ev +unchanged +-$/m);
      expect(same.stderr).toContain('dry run: would create 0, update 0, delete 0');
      const asJson = JSON.parse((await cli(['apply', '-f', file, '--dry-run', '--json'])).stdout);
      expect(asJson).toMatchObject({ dryRun: true, prune: false, summary: { create: 0, update: 0, delete: 0, unchanged: document.sources.length } });

      ev!.timeoutMs = 45_000;
      writeFileSync(file, stringifyYaml(document));
      const applied = await cli(['apply', '-f', file]);
      expect(applied.code).toBe(0);
      expect(applied.stdout).toMatch(/^source +ev +update +timeoutMs$/m);
      expect((await h.api.get('/api/v1/sources/ev')).body.timeoutMs).toBe(45_000);

      writeFileSync(file, 'sources:\n  - name: Bad Name\n    transport: pigeon\n');
      const refused = await cli(['apply', '-f', file, '--dry-run']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error VALIDATION_FAILED: /m);
      expect(refused.stderr).toContain('sources[0].name');
      expect(refused.stderr).toContain('sources[0].transport');
      const missing = await cli(['apply', '-f', join(home, 'no-such.yaml')]);
      expect(missing.code).toBe(2);
    });
  });

  describe('serve and migrate', () => {
    it('migrates a fresh database, then serves on it until SIGTERM', async () => {
      const serverUrl = process.env.TOOLPLANE_TEST_DATABASE_URL!;
      const dbName = `tp_cli_${randomBytes(5).toString('hex')}`;
      await adminQuery(`CREATE DATABASE ${dbName}`, serverUrl);
      const dataDir = mkdtempSync(join(tmpdir(), 'toolplane-cli-serve-'));
      const env = { DATABASE_URL: withDatabase(serverUrl, dbName), TOOLPLANE_DATA_DIR: dataDir, TOOLPLANE_URL: undefined, TOOLPLANE_API_KEY: undefined };
      let server: ChildProcess | undefined;
      try {
        const first = await cli(['migrate'], env);
        expect(first.code).toBe(0);
        expect(first.stdout).toMatch(/^applied \d+ migrations: InitialSchema/);
        const again = await cli(['migrate'], env);
        expect(again).toMatchObject({ code: 0, stdout: 'the database is up to date: no pending migration\n' });
        const badSettings = await cli(['migrate'], { ...env, DATABASE_URL: 'mysql://nope' });
        expect(badSettings.code).toBe(2);
        expect(badSettings.stderr).toContain('DATABASE_URL must be a postgres:// or postgresql:// URL');

        const adminKey = `cli_${randomBytes(12).toString('hex')}`;
        server = spawn(process.execPath, [CLI, 'serve'], {
          env: withoutUndefined({ ...baseEnv(), ...env, PORT: '0', HOST: '127.0.0.1', TOOLPLANE_ADMIN_KEY: adminKey }),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let logs = '';
        server.stdout!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
        server.stderr!.on('data', (chunk: Buffer) => (logs += chunk.toString()));
        const closed = new Promise<number | null>((done) => server!.once('close', (code) => done(code)));
        await waitFor(() => /Toolplane ready on (http:\/\/\S+)/.test(logs), 60_000, () => `serve did not get ready:\n${logs.slice(-3000)}`);
        const url = /Toolplane ready on (http:\/\/\S+)/.exec(logs)![1]!;
        const doctor = await cli(['doctor', '--url', url, '--key', adminKey]);
        expect(doctor.code).toBe(0);
        expect(doctor.stdout).toMatch(/^✓ sources +none registered yet/m);
        server.kill('SIGTERM');
        expect(await closed).toBe(0);
      } finally {
        if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
        await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`, serverUrl).catch(() => undefined);
      }
    }, 120_000);
  });
});

function withoutUndefined(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

async function waitFor(condition: () => boolean, withinMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(describe());
    await new Promise((r) => setTimeout(r, 50));
  }
}
