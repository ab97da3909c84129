import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EmbeddedDatabase } from '../../src/shared/database/embedded-postgres';

/** Markers of the MCP servers and Toolplane processes (server and CLI) the suite starts; none may outlive it. */
const PLUGIN_MARKERS = ['@modelcontextprotocol/server-', 'test/fixtures/', 'dist/src/main.js', 'dist/src/cli/main.js'];
/** The suite starts them by absolute path, so a run in another checkout is not counted here. */
const CHECKOUT = resolve(__dirname, '../..');

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as Record<string, unknown>).__TOOLPLANE_TEST_DB__ as
    | { database: EmbeddedDatabase; dataDir: string }
    | undefined;
  if (state) {
    await state.database.stop();
    rmSync(state.dataDir, { recursive: true, force: true });
  }
  const left = await leftoverProcesses();
  if (left.length > 0) throw new Error(`the test suite left processes running:\n${left.join('\n')}`);
}

async function leftoverProcesses(): Promise<string[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const lines = execFileSync('ps', ['-eo', 'pid=,ppid=,stat=,args='], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !/^\d+\s+\d+\s+Z/.test(l))
      .filter((l) => l.includes(CHECKOUT) && PLUGIN_MARKERS.some((m) => l.includes(m)));
    if (lines.length === 0 || Date.now() > deadline) return lines;
    await new Promise((r) => setTimeout(r, 100));
  }
}
