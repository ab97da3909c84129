import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppConfig, decodeKey } from '../../../config/app-config.js';

/** TOOLPLANE_ENCRYPTION_KEY, or a key generated once into the data directory (mode 0600). */
export async function loadEncryptionKey(config: AppConfig): Promise<{ key: Buffer; generatedAt?: string }> {
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
