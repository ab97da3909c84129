// A stdio MCP server (both eras, via serveStdio) with one read-only tool, `report`, that answers
// the same text of REPORT_BYTES characters (default 10240): the benchmark prose with e-mail
// addresses, phone numbers, cards, IBANs and secrets planted in it (bench/lib/prose.mjs, seed 42).
// REPORT_READ_ONLY=0 leaves the tool without its `readOnlyHint`. The upstream of
// bench/interceptors.mjs and bench/tasks.mjs, through Toolplane and called directly.
import { McpServer, fromJsonSchema } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { proseWriter } from './prose.mjs';

const text = proseWriter(42).prose(Number(process.env.REPORT_BYTES || 10_240), true);
const inputSchema = fromJsonSchema({ type: 'object', properties: { customer: { type: 'string' } }, required: ['customer'] });

serveStdio(() => {
  const server = new McpServer({ name: 'report-fixture', version: '1.0.0' });
  server.registerTool('report', { description: "A customer's report, PII included", inputSchema, annotations: process.env.REPORT_READ_ONLY === '0' ? {} : { readOnlyHint: true } }, async () => ({
    content: [{ type: 'text', text }],
  }));
  return server;
});
