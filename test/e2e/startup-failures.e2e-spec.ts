import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { spawnToolplane } from '../helpers/toolplane-process.js';

describe('start-up that cannot work stops with a clear message', () => {
  const root = mkdtempSync(join(tmpdir(), 'toolplane-startup-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('refuses bad settings, naming each', async () => {
    const failure = await spawnToolplane({ PORT: 'x', TOOLPLANE_AUTH: 'off', HOST: '0.0.0.0' }).then(
      () => new Error('started'),
      (error: Error) => error,
    );
    expect(failure.message).toContain('code 2');
    expect(failure.message).toContain('PORT must be an integer');
    expect(failure.message).toContain('TOOLPLANE_AUTH=off is only allowed when HOST is a loopback address');
  });

  it('explains what to do when the embedded database cannot reach a private data directory (as root) or starts (otherwise)', async () => {
    const privateParent = join(root, 'private');
    mkdirSync(privateParent);
    chmodSync(privateParent, 0o700);
    const env = { TOOLPLANE_DATA_DIR: join(privateParent, 'data') };
    if (userInfo().uid === 0) {
      // PostgreSQL runs as the unprivileged "postgres" user, which cannot traverse a 0700 parent.
      await expect(spawnToolplane(env)).rejects.toThrow(/cannot reach[\s\S]*private[\s\S]*TOOLPLANE_DATA_DIR/);
    } else {
      const toolplane = await spawnToolplane(env);
      expect(await toolplane.stop()).toBe(0);
    }
  });
});

describe('two Toolplanes on one data directory', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolplane-shared-dir-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("refuses the second instead of taking the first one's database away", async () => {
    const first = await spawnToolplane({ TOOLPLANE_DATA_DIR: dataDir });
    try {
      const failure = await spawnToolplane({ TOOLPLANE_DATA_DIR: dataDir }).then(
        async (second) => {
          await second.stop();
          return new Error('the second one started');
        },
        (error: Error) => error,
      );
      expect(failure.message).toContain('is in use by another running Toolplane');
      const ready = await fetch(`${first.url}/health/ready`);
      expect(ready.status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }
  });
});

describe('after a crash', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolplane-crashed-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('a killed Toolplane leaves an orphaned PostgreSQL that the next start stops and replaces', async () => {
    const first = await spawnToolplane({ TOOLPLANE_DATA_DIR: dataDir });
    const orphan = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    first.child.kill('SIGKILL');
    await first.stop();
    expect(() => process.kill(orphan, 0)).not.toThrow(); // still running, now without its owner
    const second = await spawnToolplane({ TOOLPLANE_DATA_DIR: dataDir });
    try {
      expect(() => process.kill(orphan, 0)).toThrow();
      expect((await fetch(`${second.url}/health/ready`)).status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });
});
