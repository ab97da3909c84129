// Writes the tools/list of the MCP servers in node_modules (server-everything, -memory,
// -filesystem) into the definition scan's corpus, as the clean definitions of real servers:
// `node scripts/dump-tool-lists.mjs`. Each server is started over stdio with the SDK's client,
// which declares sampling and elicitation (server-everything lists some tools only to such a
// client), and stopped when its listing is read.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = join(ROOT, 'src/modules/inventory/domain/definition-scan/corpus/clean');
const serverBin = (name) => join(ROOT, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');
const versionOf = (name) => JSON.parse(readFileSync(join(ROOT, 'node_modules/@modelcontextprotocol', name, 'package.json'), 'utf8')).version;

async function listTools(args) {
  const client = new Client({ name: 'toolplane-corpus', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: { form: {} } } });
  const transport = new StdioClientTransport({ command: process.execPath, args, env: { PATH: process.env.PATH ?? '' }, stderr: 'ignore' });
  await client.connect(transport);
  try {
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  } finally {
    await client.close();
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'toolplane-corpus-'));
try {
  for (const [server, source, args] of [
    ['server-everything', 'everything', ['stdio']],
    ['server-memory', 'memory', []],
    ['server-filesystem', 'filesystem', [scratch]],
  ]) {
    const tools = await listTools([serverBin(server), ...args]);
    const origin = `tools/list of @modelcontextprotocol/${server} ${versionOf(server)} (node_modules), dumped by scripts/dump-tool-lists.mjs`;
    const file = join(CORPUS, `npm-${server}.json`);
    writeFileSync(file, `${JSON.stringify({ origin, sourceName: source, tools }, null, 2)}\n`);
    console.log(`${tools.length} tools of ${server} → ${file}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
