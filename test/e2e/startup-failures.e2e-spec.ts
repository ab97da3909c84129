import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { expectNoProcesses, isLive, processesMatching } from '../helpers/processes.js';
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
  const postmasterPid = () => Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

  it('the PostgreSQL of a Toolplane killed with SIGKILL stops by itself, and the next start takes the data directory', async () => {
    const first = await spawnToolplane({ TOOLPLANE_DATA_DIR: dataDir });
    const postgres = postmasterPid();
    first.child.kill('SIGKILL');
    await first.stop();
    await expectNoProcesses([dataDir], 15_000);
    expect(isLive(postgres)).toBe(false);
    const second = await spawnToolplane({ TOOLPLANE_DATA_DIR: dataDir });
    try {
      expect((await fetch(`${second.url}/health/ready`)).status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('a PostgreSQL orphaned all the same (its watchdog killed first) is stopped and replaced by the next start', async () => {
    const first = await spawnToolplane({ TOOLPLANE_DATA_DIR: dataDir });
    const orphan = postmasterPid();
    const watchdogs = processesMatching(dataDir).filter((line) => line.includes('toolplane-postgres-watchdog'));
    expect(watchdogs).toHaveLength(1);
    process.kill(Number(watchdogs[0]!.split(/\s+/)[0]), 'SIGKILL');
    first.child.kill('SIGKILL');
    await first.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(isLive(orphan)).toBe(true); // still running, now without its owner
    const second = await spawnToolplane({ TOOLPLANE_DATA_DIR: dataDir });
    try {
      expect(isLive(orphan)).toBe(false);
      expect((await fetch(`${second.url}/health/ready`)).status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
    await expectNoProcesses([dataDir]);
  });
});
