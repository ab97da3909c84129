import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decideSandbox, sandboxPolicy, SandboxUnavailableError } from './sandbox-probe.js';
import { sandboxedLaunch, type SandboxPolicy } from './sandbox.js';

const policy: SandboxPolicy = { bwrapPath: '/usr/bin/bwrap', hiddenPaths: ['/'], runAs: { uid: 65534, gid: 65534 } };
const base = { command: 'node', args: ['server.js'], cwd: '/srv/plugin', env: { PATH: '/usr/bin', HOME: '/root' } };

describe('sandboxedLaunch', () => {
  it('runs the command under bwrap with new PID/IPC/UTS namespaces, a fresh /proc, a private /tmp, dying with its parent', () => {
    const launch = sandboxedLaunch({ ...policy, hiddenPaths: [] }, base);
    expect(launch.command).toBe('/usr/bin/bwrap');
    const joined = launch.args.join(' ');
    for (const flag of ['--ro-bind / /', '--dev /dev', '--proc /proc', '--tmpfs /tmp', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--die-with-parent', '--chdir /srv/plugin']) {
      expect(joined).toContain(flag);
    }
    expect(launch.args).not.toContain('--unshare-net');
    expect(launch.args.slice(-2)).toEqual(['node', 'server.js']);
    expect(launch.cwd).toBe('/srv/plugin');
  });

  it('drops to the configured user with setpriv when Toolplane is root, and not otherwise', () => {
    const asRoot = sandboxedLaunch({ ...policy, hiddenPaths: [] }, base).args;
    const setpriv = asRoot.indexOf('setpriv');
    expect(asRoot.slice(setpriv, setpriv + 7)).toEqual(['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--']);
    expect(asRoot.join(' ')).toContain('--cap-drop ALL --cap-add CAP_SETUID --cap-add CAP_SETGID --cap-add CAP_SETPCAP --');
    const asUser = sandboxedLaunch({ bwrapPath: '/usr/bin/bwrap', hiddenPaths: [] }, base).args;
    expect(asUser).not.toContain('setpriv');
    expect(asUser).not.toContain('--cap-drop');
  });

  it('hides existing hidden paths after every bind, turns the network off on request, binds extra paths outer first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-spec-'));
    try {
      const launch = sandboxedLaunch({ ...policy, hiddenPaths: [dir, '/does/not/exist'] }, base, {
        settings: { network: false, readOnlyPaths: ['/opt/a/b', `${dir}/`], writablePaths: ['/opt/a'] },
      });
      const args = launch.args;
      expect(args).toContain('--unshare-net');
      expect(args.join(' ')).toContain(`--bind /opt/a /opt/a --ro-bind ${dir} ${dir} --ro-bind /opt/a/b /opt/a/b --tmpfs ${dir}`);
      expect(args.join(' ')).not.toContain('/does/not/exist');
      expect(args.lastIndexOf('--tmpfs')).toBeGreaterThan(args.lastIndexOf('--ro-bind'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('binds existing paths under /tmp that the launch names (the private /tmp would hide them)', () => {
    const dir = mkdtempSync('/tmp/sandbox-spec-');
    try {
      const launch = sandboxedLaunch({ ...policy, hiddenPaths: [] }, { ...base, args: [join(dir, 'missing.js'), dir], cwd: dir });
      expect(launch.args.join(' ')).toContain(`--ro-bind ${dir} ${dir}`);
      expect(launch.args.join(' ')).not.toContain(`--ro-bind ${join(dir, 'missing.js')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives the plugin HOME and TMPDIR in its private /tmp unless the source declares them', () => {
    expect(sandboxedLaunch(policy, base).env).toMatchObject({ HOME: '/tmp', TMPDIR: '/tmp', PATH: '/usr/bin' });
    const declared = sandboxedLaunch(policy, { ...base, env: { ...base.env, HOME: '/srv/home' } }, { declaredEnv: ['HOME'] });
    expect(declared.env.HOME).toBe('/srv/home');
  });
});

describe('decideSandbox', () => {
  const options = { mode: 'auto' as const, bwrapPath: '/usr/bin/bwrap', dataDir: '/nonexistent-data', uid: 65534, gid: 65534, currentUid: process.getuid?.() ?? 1000 };

  it('is off when configured off, without probing', () => {
    expect(decideSandbox({ ...options, mode: 'off', bwrapPath: '/nope' })).toEqual({ enabled: false, reason: 'TOOLPLANE_SANDBOX=off' });
  });

  it('reports a missing bwrap (auto) or refuses to start (required)', () => {
    const status = decideSandbox({ ...options, bwrapPath: '/nonexistent/bwrap' });
    expect(status).toEqual({ enabled: false, reason: expect.stringContaining('/nonexistent/bwrap not found') });
    expect(() => decideSandbox({ ...options, mode: 'required', bwrapPath: '/nonexistent/bwrap' })).toThrow(SandboxUnavailableError);
    expect(decideSandbox({ ...options, platform: 'darwin' })).toEqual({ enabled: false, reason: expect.stringContaining('needs Linux') });
  });

  it('enables bubblewrap after a real trial run on this machine', () => {
    const status = decideSandbox({ ...options, mode: 'required' });
    expect(status).toEqual({ enabled: true, policy: sandboxPolicy(options) });
  });
});
