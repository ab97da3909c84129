import { rmSync } from 'node:fs';
import type { EmbeddedDatabase } from '../../src/shared/database/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as Record<string, unknown>).__TOOLPLANE_TEST_DB__ as
    | { database: EmbeddedDatabase; dataDir: string }
    | undefined;
  if (!state) return;
  await state.database.stop();
  rmSync(state.dataDir, { recursive: true, force: true });
}
