// The least a recording tool proxy can do, for bench/floor.mjs: `node floor-proxy.mjs --port N
// [--upstream URL] [--record POSTGRES_URL [--group]]`. It answers each POSTed JSON-RPC `tools/call` by
// forwarding it to server-everything, which it starts, over stdio, or with `--upstream` to a
// stateless Streamable HTTP server (one keep-alive connection pool, JSON answers, 2025-11-25
// headers); with `--record`, it first writes one row per
// call into PostgreSQL and waits for its commit (flushed to disk, as PostgreSQL commits by
// default). With `--group` the rows are group-committed as Toolplane's are: one writer takes every
// row waiting and writes them with one multi-row INSERT, so calls in flight together share a
// commit. No authentication, no validation, no policy, no hash chain, no metrics: what is left is
// the hops and the record, which bound any proxy that keeps a durable history.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { URL, fileURLToPath } from 'node:url';
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import pg from 'pg';
import { Pool } from 'undici';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const argument = (name) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const port = Number(argument('--port'));
const recordUrl = argument('--record');
const grouped = process.argv.includes('--group');

const upstreamUrl = argument('--upstream');
const request = upstreamUrl ? httpRequester(new URL(upstreamUrl)) : await stdioRequester();

/** `tools/call` over a pipe to a server-everything of its own, after `initialize`. */
async function stdioRequester() {
  const child = spawn(process.execPath, [EVERYTHING, 'stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  process.on('exit', () => child.kill('SIGTERM'));
  const pending = new Map();
  let nextId = 0;
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      const waiting = pending.get(message.id);
      if (waiting) {
        pending.delete(message.id);
        waiting(message);
      }
    }
  });
  const send = (method, params) =>
    new Promise((resolveAnswer) => {
      const id = ++nextId;
      pending.set(id, resolveAnswer);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await send('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'floor-proxy', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return send;
}

/** `tools/call` as one stateless POST each, over keep-alive connections. */
function httpRequester(url) {
  const pool = new Pool(url.origin);
  let nextId = 0;
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  return async (method, params) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: ++nextId, method, params });
    const response = await pool.request({ path: `${url.pathname}${url.search}`, method: 'POST', headers, body });
    return response.body.json();
  };
}

let db;
if (recordUrl) {
  db = new pg.Client({ connectionString: recordUrl });
  await db.connect();
  await db.query(`CREATE TABLE IF NOT EXISTS floor_calls (
    id uuid PRIMARY KEY, tool text NOT NULL, arguments jsonb NOT NULL, result jsonb, started_at timestamptz NOT NULL, duration_ms double precision NOT NULL)`);
}

const COLUMNS = ['id', 'tool', 'arguments', 'result', 'started_at', 'duration_ms'];
/** The INSERT of n rows, built once per n. */
const insertTexts = new Map();

/** One INSERT of `rows`; up to 8 rows it is a statement prepared once per row count. */
function insertRows(rows) {
  let text = insertTexts.get(rows.length);
  if (text === undefined) {
    const tuples = rows.map((_, i) => `(${COLUMNS.map((_, c) => `$${i * COLUMNS.length + c + 1}`).join(', ')})`);
    text = `INSERT INTO floor_calls (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`;
    insertTexts.set(rows.length, text);
  }
  return db.query({ name: rows.length <= 8 ? `record${rows.length}` : undefined, text, values: rows.flat() });
}

const queue = [];
let writing = false;

/** Resolves once the row is committed, in one INSERT with every other row waiting when the writer took it. */
function groupCommit(row) {
  return new Promise((resolveRow, rejectRow) => {
    queue.push({ row, resolveRow, rejectRow });
    if (!writing) void drain();
  });
}

async function drain() {
  writing = true;
  while (queue.length > 0) {
    const batch = queue.splice(0, 500);
    try {
      await insertRows(batch.map((entry) => entry.row));
      for (const entry of batch) entry.resolveRow();
    } catch (error) {
      for (const entry of batch) entry.rejectRow(error);
    }
  }
  writing = false;
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    const call = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const startedAt = new Date();
    const started = performance.now();
    const answer = await request('tools/call', call.params);
    if (db) {
      const row = [randomUUID(), call.params.name, JSON.stringify(call.params.arguments ?? {}), JSON.stringify(answer.result ?? null), startedAt, performance.now() - started];
      await (grouped ? groupCommit(row) : insertRows([row]));
    }
    const body = JSON.stringify({ jsonrpc: '2.0', id: call.id, ...(answer.error ? { error: answer.error } : { result: answer.result }) });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
});
server.listen(port, '127.0.0.1');

const stop = () => {
  server.close();
  void db?.end();
  setTimeout(() => process.exit(0), 200).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
