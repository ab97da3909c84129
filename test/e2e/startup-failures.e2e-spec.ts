import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
