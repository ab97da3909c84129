import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { holdsUnixSockets, socketDirectory } from './embedded-postgres.js';

describe('socketDirectory', () => {
  it('puts the socket in the cluster directory when its path fits the kernel limit', () => {
    expect(socketDirectory('/var/lib/toolplane/postgres', 54321)).toBe('/var/lib/toolplane/postgres');
    // ".s.PGSQL.65535" and a slash: 15 bytes after the directory, 107 in all at most.
    expect(socketDirectory('/' + 'd'.repeat(91), 65535)).toBe('/' + 'd'.repeat(91));
    expect(socketDirectory('/' + 'd'.repeat(92), 65535)).toBeUndefined();
  });

  it('falls back to TCP for a directory unix_socket_directories would not read as one path', () => {
    for (const dir of ['/data/a,b/postgres', '/data/with space/postgres', "/data/it's/postgres", '/data/"q"/postgres', '/data/é/postgres']) {
      expect(socketDirectory(dir, 5432)).toBeUndefined();
    }
  });
});

describe('holdsUnixSockets', () => {
  it('makes a socket in the directory and leaves nothing behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolplane-socket-check-'));
    try {
      expect(await holdsUnixSockets(dir)).toBe(true);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers false where no socket can be made', async () => {
    expect(await holdsUnixSockets(join(tmpdir(), 'toolplane-no-such-dir', 'deeper'))).toBe(false);
    expect(await holdsUnixSockets('/' + 'd'.repeat(100))).toBe(false);
  });
});
