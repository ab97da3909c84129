import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';

/** TOOLPLANE_ENCRYPTION_KEY, or a key generated once into the data directory (mode 0600). */
export async function loadEncryptionKey(config: { encryptionKey?: string; dataDir: string }): Promise<{ key: Buffer; generatedAt?: string }> {
  if (config.encryptionKey) return { key: decodeKey(config.encryptionKey) };
  const file = join(config.dataDir, 'encryption.key');
  if (existsSync(file)) return { key: decodeKey((await readFile(file, 'utf8')).trim()) };
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  try {
    await writeFile(file, key.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process generated it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { key: decodeKey((await readFile(file, 'utf8')).trim()) };
    throw error;
  }
  return { key, generatedAt: file };
}

/**
 * A key generated just now on a database that already holds values sealed with another key means
 * another Toolplane process, with its own data directory, sealed them: this one could open none of
 * them. Refuse to start (and forget the new key, so the next start does not silently keep it).
 */
export async function assertGeneratedKeyFitsDatabase(dataSource: DataSource, keyId: string, generatedAt: string | undefined): Promise<void> {
  if (!generatedAt) return;
  const rows: { key_id: string }[] = await dataSource.query(
    `SELECT key_id FROM (
       SELECT sealed ->> 'keyId' AS key_id FROM secrets
       UNION ALL SELECT env_sealed ->> 'keyId' FROM sources WHERE env_sealed IS NOT NULL
       UNION ALL SELECT headers_sealed ->> 'keyId' FROM sources WHERE headers_sealed IS NOT NULL
     ) sealed_values WHERE key_id IS DISTINCT FROM $1 LIMIT 1`,
    [keyId],
  );
  const foreign = rows[0]?.key_id;
  if (foreign === undefined) return;
  await rm(generatedAt, { force: true });
  throw new Error(
    `The database holds values sealed with encryption key ${foreign}, but this process has no key of its own yet ` +
      `(a new one would be generated into ${generatedAt}). Set TOOLPLANE_ENCRYPTION_KEY to the key they were ` +
      `sealed with: the one the other Toolplane processes on this database use.`,
  );
}

/** A 32-byte key written as 64 hex digits or base64. */
export function decodeKey(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
}

/** Whether `value` is such a key (TOOLPLANE_ENCRYPTION_KEY is checked at start). */
export function isValidKey(value: string): boolean {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return true;
  return /^[A-Za-z0-9+/]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32;
}
