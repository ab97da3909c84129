import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { checkOutPlugin as checkout } from '../testing/plugin-checkout.js';
import { sandboxedLaunch, type SandboxPolicy } from './sandbox.js';

const policy: SandboxPolicy = { bwrapPath: '/usr/bin/bwrap', hiddenPaths: ['/'], runAs: { uid: 65534, gid: 65534 } };
/** bwrap's own arguments: what comes before the command it runs. */
const mounts = (args: string[]) => args.slice(0, args.indexOf('--'));
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

  it("binds a script's package root under /tmp (the nearest package.json naming a package), not the script alone", () => {
    const dir = mkdtempSync('/tmp/sandbox-spec-');
    try {
      checkout(join(dir, 'checkout'));
      const root = join(dir, 'checkout');
      const launch = sandboxedLaunch({ ...policy, hiddenPaths: [] }, { ...base, cwd: undefined, args: [join(root, 'dist/server.js')] });
      const joined = launch.args.join(' ');
      expect(joined).toContain(`--ro-bind ${root} ${root}`);
      // The root covers its node_modules, dist and the script: no bind of its own for any of them.
      expect(mounts(launch.args).filter((arg) => arg.startsWith(root) && arg !== root)).toEqual([]);
      // Every parent bwrap has to create inside the private /tmp is made reachable (0755), not left 0700 root.
      expect(joined).toContain(`--perms 0755 --dir ${dir} --ro-bind ${root}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('binds the node_modules a script inside node_modules resolves its dependencies from, and a lone script’s own directory', () => {
    const dir = mkdtempSync('/tmp/sandbox-spec-');
    try {
      const project = join(dir, 'project');
      const packageDir = join(project, 'node_modules/@scope/server');
      mkdirSync(join(packageDir, 'dist'), { recursive: true });
      writeFileSync(join(project, 'package.json'), '{"name": "project"}');
      writeFileSync(join(packageDir, 'package.json'), '{"name": "@scope/server"}');
      writeFileSync(join(packageDir, 'dist/package.json'), '{"type": "module"}');
      writeFileSync(join(packageDir, 'dist/index.js'), '');
      const inPackage = sandboxedLaunch({ ...policy, hiddenPaths: [] }, { ...base, cwd: undefined, args: [join(packageDir, 'dist/index.js'), 'stdio'] }).args;
      expect(inPackage.join(' ')).toContain(`--ro-bind ${join(project, 'node_modules')} ${join(project, 'node_modules')}`);
      expect(mounts(inPackage).filter((arg) => arg.startsWith(packageDir))).toEqual([]);

      const lone = join(dir, 'lone');
      mkdirSync(lone);
      writeFileSync(join(lone, 'server.mjs'), '');
      const loneArgs = sandboxedLaunch({ ...policy, hiddenPaths: [] }, { ...base, cwd: undefined, args: [join(lone, 'server.mjs')] }).args;
      expect(loneArgs.join(' ')).toContain(`--ro-bind ${lone} ${lone}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves paths the source lists to its own settings: a writable path inside a package root stays writable', () => {
    const dir = mkdtempSync('/tmp/sandbox-spec-');
    try {
      checkout(dir);
      const data = join(dir, 'data');
      mkdirSync(data);
      writeFileSync(join(data, 'notes.json'), '{}');
      const args = sandboxedLaunch({ ...policy, hiddenPaths: [] }, { ...base, cwd: undefined, args: [join(dir, 'dist/server.js'), join(data, 'notes.json')] }, { settings: { writablePaths: [data] } }).args;
      expect(args.join(' ')).toContain(`--ro-bind ${dir} ${dir} --bind ${data} ${data}`);
      expect(args.join(' ')).not.toContain(`--ro-bind ${data}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds a package root whatever package.json files hold (foreign text never breaks a launch)', () => {
    const dir = mkdtempSync('/tmp/sandbox-spec-');
    try {
      const script = join(dir, 'a/b/server.mjs');
      mkdirSync(dirname(script), { recursive: true });
      writeFileSync(script, '');
      fc.assert(
        fc.property(fc.option(fc.string(), { nil: undefined }), fc.option(fc.oneof(fc.string(), fc.json()), { nil: undefined }), (outer, inner) => {
          for (const [path, text] of [[join(dir, 'package.json'), outer], [join(dir, 'a/package.json'), inner]] as const) {
            if (text === undefined) rmSync(path, { force: true });
            else writeFileSync(path, text);
          }
          const args = sandboxedLaunch({ ...policy, hiddenPaths: [] }, { ...base, cwd: undefined, args: [script] }).args;
          const bound = args.filter((_, index) => args[index - 1] === '--ro-bind').filter((path) => path.startsWith(dir));
          expect(bound.length).toBeGreaterThanOrEqual(1);
          for (const path of bound) expect(script.startsWith(`${path}/`)).toBe(true);
        }),
        { numRuns: 60 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes relative arguments from the working directory: what they need is bound too', () => {
    const dir = mkdtempSync('/tmp/sandbox-spec-');
    try {
      checkout(join(dir, 'checkout'));
      mkdirSync(join(dir, 'work'));
      const launch = sandboxedLaunch({ ...policy, hiddenPaths: [] }, { ...base, cwd: join(dir, 'work'), args: ['../checkout/dist/server.js', 'stdio'] });
      expect(launch.args.join(' ')).toContain(`--ro-bind ${join(dir, 'checkout')} ${join(dir, 'checkout')}`);
      expect(launch.args.join(' ')).toContain(`--ro-bind ${join(dir, 'work')} ${join(dir, 'work')}`);
      expect(launch.args.join(' ')).not.toContain(`${join(dir, 'work')}/stdio`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('hides the data directory inside a bound package root, then binds the source’s home writable at its own path as HOME', () => {
    const dir = mkdtempSync('/tmp/sandbox-spec-');
    try {
      checkout(dir);
      const dataDir = join(dir, '.toolplane');
      const home = join(dataDir, 'plugins', 'source-id', 'home');
      mkdirSync(home, { recursive: true });
      const launch = sandboxedLaunch({ ...policy, hiddenPaths: [dataDir] }, { ...base, cwd: dir, args: [join(dir, 'dist/server.js')] }, { home });
      const joined = launch.args.join(' ');
      expect(joined).toContain(
        `--ro-bind ${dir} ${dir} --tmpfs ${dataDir} --perms 0755 --dir ${join(dataDir, 'plugins')} --perms 0755 --dir ${join(dataDir, 'plugins', 'source-id')} --bind ${home} ${home}`,
      );
      expect(launch.env).toMatchObject({ HOME: home, TMPDIR: '/tmp' });
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
