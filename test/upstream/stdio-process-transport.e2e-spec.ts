import { Client } from '@modelcontextprotocol/client';
import { buildChildEnvironment } from '../../src/upstream/stdio/child-environment.js';
import { killAllStdioProcesses, liveStdioProcessIds } from '../../src/upstream/stdio/process-registry.js';
import { StdioProcessExitError, StdioSpawnError } from '../../src/upstream/stdio/stdio-errors.js';
import { StdioProcessTransport } from '../../src/upstream/stdio/stdio-process-transport.js';
import { eventually, isRunning, paths, processTag, processesMatching, scratchDir, tool } from './mcp-test-support.js';

/** A shell-free command whose process group holds a grandchild as well (the SIGTERM-ignoring kind). */
const STUBBORN_PARENT = `
const { spawn } = require('node:child_process');
process.on('SIGTERM', () => {});
spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)', process.argv[1]], { stdio: 'ignore' });
setInterval(() => {}, 1000);
`;

describe('StdioProcessTransport', () => {
  afterEach(() => {
    expect(liveStdioProcessIds()).toEqual([]);
  });

  test('passes only the allowlisted environment plus the declared variables', async () => {
    const saved = { ...process.env };
    process.env.DATABASE_URL = 'postgres://user:hunter2@db/toolplane';
    process.env.TOOLPLANE_ADMIN_KEY = 'admin-key-that-must-not-leak';
    process.env.AWS_SECRET_ACCESS_KEY = 'aws-secret';
    try {
      const transport = new StdioProcessTransport({
        command: process.execPath,
        args: [paths.everything, 'stdio'],
        env: { DECLARED_TOKEN: 'declared-value' },
      });
      const client = new Client({ name: 'test', version: '0' });
      await client.connect(transport);
      const result = await client.callTool({ name: 'get-env', arguments: {} });
      await client.close();
      const content = result.content as { type: string; text: string }[];
      const env = JSON.parse(content[0]!.text) as Record<string, string>;
      expect(env.DECLARED_TOKEN).toBe('declared-value');
      expect(env.PATH).toBe(process.env.PATH);
      expect(env).not.toHaveProperty('DATABASE_URL');
      expect(env).not.toHaveProperty('AWS_SECRET_ACCESS_KEY');
      expect(Object.keys(env).filter((key) => key.startsWith('TOOLPLANE_'))).toEqual([]);
    } finally {
      process.env = saved;
    }
  });

  test('buildChildEnvironment keeps exported shell functions and bad names out', () => {
    const env = buildChildEnvironment({ API_KEY: 'k' }, { PATH: '/bin', HOME: '/home/x', SHELL: '() { :; }', DATABASE_URL: 'x' });
    expect(env).toEqual({ PATH: '/bin', HOME: '/home/x', API_KEY: 'k' });
    expect(() => buildChildEnvironment({ 'A=B': 'x' }, {})).toThrow('invalid environment variable name');
    expect(() => buildChildEnvironment({ SECRET: 'a\0b' }, {})).toThrow('invalid value for environment variable SECRET');
    expect(() => buildChildEnvironment({ SECRET: 'a\0b' }, {})).not.toThrow('a\0b');
  });

  test('a missing command is reported as "command not found"', async () => {
    const transport = new StdioProcessTransport({ command: 'toolplane-no-such-command-xyz' });
    await expect(transport.start()).rejects.toThrow(StdioSpawnError);
    await expect(transport.start()).rejects.toThrow('stdio transport already started');
    expect(transport.failure?.message).toBe('command not found: toolplane-no-such-command-xyz');
    await transport.close();
  });

  test('an unexpected exit surfaces the exit code and the stderr tail', async () => {
    const transport = new StdioProcessTransport({ command: process.execPath, args: [paths.crashing], env: { CRASH_AT: 'start' } });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    await transport.start();
    await closed;
    expect(transport.failure).toBeInstanceOf(StdioProcessExitError);
    expect(transport.failure?.message).toBe('process exited with code 3: fatal: cannot open the widget database');
    expect(errors.map((error) => error.message)).toContain(transport.failure?.message);
    expect(transport.exit).toEqual({ code: 3, signal: null, expected: false });
    await transport.close();
  });

  test('a process that broke the pipe before the close is described by its own exit, not as closed on request', async () => {
    // It stops reading (a write to it then fails with EPIPE) and ends by itself a little later,
    // whatever signal it gets meanwhile: the order in which a crashing server's signs arrive.
    const dying = `process.on('SIGTERM', () => {}); require('node:fs').closeSync(0); process.stderr.write('fatal: going away\\n'); setTimeout(() => process.exit(3), 400);`;
    const transport = new StdioProcessTransport({ command: process.execPath, args: ['-e', dying], killGraceMs: 5000 });
    transport.onerror = () => undefined;
    await transport.start();
    expect(await eventually(() => transport.stderrTail.includes('going away'))).toBe(true);
    const sent = await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' }).then(() => 'sent', (error: NodeJS.ErrnoException) => error.code);
    expect(sent).toBe('EPIPE');
    await transport.close();
    expect(transport.exit).toEqual({ code: 3, signal: null, expected: false });
    expect(transport.failure?.message).toBe('process exited with code 3: fatal: going away');
  });

  test('close() kills the whole process group, escalating to SIGKILL, and resolves after the exit', async () => {
    const tag = processTag();
    const transport = new StdioProcessTransport({ command: process.execPath, args: ['-e', STUBBORN_PARENT, tag], killGraceMs: 300 });
    await transport.start();
    expect(await eventually(() => processesMatching(tag).length === 2)).toBe(true);
    const startedAt = Date.now();
    await transport.close();
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(250);
    expect(transport.exit).toEqual({ code: null, signal: 'SIGKILL', expected: true });
    expect(await eventually(() => processesMatching(tag).length === 0)).toBe(true);
  });

  test('killAllStdioProcesses() kills every tracked group synchronously', async () => {
    const tag = processTag();
    const transports = [1, 2].map(() => new StdioProcessTransport({ command: process.execPath, args: ['-e', STUBBORN_PARENT, tag] }));
    await Promise.all(transports.map((transport) => transport.start()));
    const pids = transports.map((transport) => transport.pid!);
    expect(liveStdioProcessIds().sort()).toEqual([...pids].sort());
    killAllStdioProcesses();
    expect(liveStdioProcessIds()).toEqual([]);
    expect(await eventually(() => processesMatching(tag).length === 0)).toBe(true);
    await Promise.all(transports.map((transport) => transport.close()));
    expect(pids.some(isRunning)).toBe(false);
  });

  test('a stdout line over the limit is dropped, the request fails with a clear error, the session goes on', async () => {
    const scratch = scratchDir();
    try {
      const small = [tool('alpha'), tool('beta')];
      const inventory = scratch.write('inventory.json', small);
      const transport = new StdioProcessTransport({
        command: process.execPath,
        args: [paths.changingInventory],
        env: { INVENTORY_FILE: inventory, PAGE_SIZE: '10' },
        maxLineBytes: 64 * 1024,
      });
      const errors: Error[] = [];
      const client = new Client({ name: 'test', version: '0' });
      client.onerror = (error) => errors.push(error);
      await client.connect(transport);
      expect((await client.request({ method: 'tools/list', params: {} })).tools).toHaveLength(2);

      scratch.write('inventory.json', [...small, tool('huge', { description: 'x'.repeat(200 * 1024) })]);
      await expect(client.request({ method: 'tools/list', params: {} }, { timeout: 10_000 })).rejects.toThrow(
        /dropped a 200\.\d KiB message from the server: larger than the 64 KiB limit/,
      );
      expect(errors.some((error) => error.message.includes('larger than the 64 KiB limit'))).toBe(true);

      scratch.write('inventory.json', small);
      expect((await client.request({ method: 'tools/list', params: {} })).tools).toHaveLength(2);
      await client.close();
    } finally {
      scratch.remove();
    }
  });

  test('stderr is kept as a bounded tail', async () => {
    const transport = new StdioProcessTransport({
      command: process.execPath,
      args: ['-e', 'for (let i = 0; i < 2000; i++) console.error("line " + i)'],
      stderrTailBytes: 1024,
    });
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    await transport.start();
    await closed;
    const tail = transport.stderrTail;
    expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(1024);
    expect(tail.trimEnd().endsWith('line 1999')).toBe(true);
    expect(transport.failure?.message).toMatch(/^process exited with code 0: …?.*line 1999$/s);
    await transport.close();
  });
});
