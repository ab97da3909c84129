import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkOutPlugin as checkout } from '../testing/plugin-checkout.js';
import { decideSandbox, sandboxPolicy, SandboxUnavailableError } from './sandbox-probe.js';
import { sandboxedLaunch, type SandboxPolicy } from './sandbox.js';

/** What needs this machine: bwrap itself, and a FIFO made by mkfifo. The launch's arguments are sandbox.spec.ts's. */
const policy: SandboxPolicy = { bwrapPath: '/usr/bin/bwrap', hiddenPaths: [], runAs: { uid: 65534, gid: 65534 } };
const base = { command: 'node', args: ['server.js'], cwd: '/srv/plugin', env: { PATH: '/usr/bin', HOME: '/root' } };

describe('sandboxedLaunch on this machine', () => {
  it('reads no package.json that is not a file (a FIFO would block)', () => {
    const dir = mkdtempSync('/tmp/sandbox-spec-');
    try {
      mkdirSync(join(dir, 'app'));
      writeFileSync(join(dir, 'app/server.mjs'), '');
      execFileSync('mkfifo', [join(dir, 'package.json')]);
      const args = sandboxedLaunch(policy, { ...base, cwd: undefined, args: [join(dir, 'app/server.mjs')] }).args;
      expect(args.join(' ')).toContain(`--ro-bind ${join(dir, 'app')} ${join(dir, 'app')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs a plugin under /tmp that imports a sibling module and a dependency from its node_modules', () => {
    const dir = mkdtempSync('/tmp/sandbox-spec-');
    try {
      chmodSync(dir, 0o755);
      checkout(join(dir, 'checkout'));
      chmodSync(join(dir, 'checkout'), 0o755);
      const status = decideSandbox({ mode: 'required', bwrapPath: '/usr/bin/bwrap', dataDir: '/nonexistent-data', uid: 65534, gid: 65534, currentUid: process.getuid?.() ?? 1000 });
      if (!status.enabled) throw new Error('no sandbox');
      const launch = sandboxedLaunch(status.policy, { command: process.execPath, args: [join(dir, 'checkout/dist/server.js')], env: { PATH: process.env.PATH ?? '' } });
      const run = spawnSync(launch.command, launch.args, { env: launch.env, encoding: 'utf8', timeout: 20_000 });
      expect({ stdout: run.stdout, stderr: run.stderr, status: run.status }).toEqual({ stdout: 'hello from sibling', stderr: '', status: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('decideSandbox', () => {
  const options = { mode: 'auto' as const, bwrapPath: '/usr/bin/bwrap', dataDir: '/nonexistent-data', uid: 65534, gid: 65534, currentUid: process.getuid?.() ?? 1000 };

  it('is off when configured off, without probing', () => {
    expect(decideSandbox({ ...options, mode: 'off', bwrapPath: '/nope' })).toEqual({ enabled: false, reason: 'TOOLPLANE_SANDBOX=off', fix: expect.stringContaining('unset TOOLPLANE_SANDBOX') });
  });

  it('reports a missing bwrap (auto) or refuses to start (required)', () => {
    const status = decideSandbox({ ...options, bwrapPath: '/nonexistent/bwrap' });
    expect(status).toEqual({ enabled: false, reason: expect.stringContaining('/nonexistent/bwrap not found'), fix: expect.stringContaining('apt-get install bubblewrap') });
    expect(() => decideSandbox({ ...options, mode: 'required', bwrapPath: '/nonexistent/bwrap' })).toThrow(SandboxUnavailableError);
    expect(decideSandbox({ ...options, platform: 'darwin' })).toEqual({ enabled: false, reason: expect.stringContaining('needs Linux'), fix: expect.stringContaining('trusted code') });
  });

  it('enables bubblewrap after a real trial run on this machine', () => {
    const status = decideSandbox({ ...options, mode: 'required' });
    expect(status).toEqual({ enabled: true, policy: sandboxPolicy(options) });
  });
});
