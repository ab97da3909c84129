import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppConfig } from '../../../config/app-config.js';

/** TOOLPLANE_ADMIN_KEY, or one generated once into the data directory (mode 0600). */
export async function loadAdminKey(config: AppConfig): Promise<{ key: string; file?: string; generated: boolean }> {
  if (config.adminKey) return { key: config.adminKey, generated: false };
  const file = join(config.dataDir, 'admin.key');
  if (existsSync(file)) return { key: (await readFile(file, 'utf8')).trim(), file, generated: false };
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const key = `tp_${randomBytes(24).toString('base64url')}`;
  try {
    await writeFile(file, key + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { key: (await readFile(file, 'utf8')).trim(), file, generated: false };
    throw error;
  }
  return { key, file, generated: true };
}
