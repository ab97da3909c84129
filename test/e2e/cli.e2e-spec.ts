import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { adminQuery, withDatabase } from '../helpers/test-database.js';
import { startHarness, type Harness } from '../helpers/toolplane-harness.js';
import { EVERYTHING, EVERYTHING_CALLABLE_COUNT, freePort, ROOT } from '../helpers/upstreams.js';

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

  const cli = (args: string[], env: Record<string, string | undefined> = {}): Promise<Run> =>
    new Promise((done, fail) => {
      const child = spawn(process.execPath, [CLI, ...args], {
        env: withoutUndefined({ ...baseEnv(), TOOLPLANE_URL: h.url, TOOLPLANE_API_KEY: h.adminKey, ...env }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
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
      for (const command of ['serve', 'migrate', 'apply', 'export', 'sources', 'tools', 'call', 'executions', 'keys', 'audit', 'doctor']) {
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
      expect(header).toMatch(/^NAME +TRANSPORT +HEALTH +TOOLS +LAST REFRESH +LAST ERROR$/);
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
      expect(run.stdout).toMatch(/^✓ source ev +healthy, \d+ tool\(s\)$/m);
      expect(run.stdout).toContain('no problem found');
      const json = JSON.parse((await cli(['doctor', '--json'])).stdout);
      expect(json.ok).toBe(true);
    });

    it('fails with what to fix: a wrong key, an unhealthy source, an unreachable server', async () => {
      const wrongKey = await cli(['doctor'], { TOOLPLANE_API_KEY: 'wrong-key-0000000000' });
      expect(wrongKey.code).toBe(1);
      expect(wrongKey.stdout).toMatch(/^✗ api key +refused: INVALID_API_KEY: /m);
      expect(wrongKey.stdout).toMatch(/^ +fix: use a valid, unrevoked, unexpired key/m);
      expect(wrongKey.stdout).toContain('1 check(s) failed');

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
        expect(run.stdout).toContain('1 check(s) failed');
        const json = JSON.parse((await cli(['doctor', '--url', peer.url, '--json'])).stdout);
        expect(json.checks).toContainEqual({ name: 'sandbox', status: 'fail', detail: expect.stringContaining("plugins run as Toolplane's own user"), fix: expect.stringContaining('bubblewrap') });
      } finally {
        await peer.close();
      }
    });
  });

  describe('connection settings', () => {
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
        expect(first.stdout).toMatch(/^applied \d+ migration\(s\): InitialSchema/);
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
