// A policy service for Toolplane's webhook interceptors (docs/interceptor-webhook.md): it checks each
// request's signature and age, denies calls whose `path` argument is under /etc and allows the rest.
// Run: WEBHOOK_SECRET=<the signing secret's value> PORT=8787 node interceptor-webhook.mjs
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { posix } from 'node:path';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('WEBHOOK_SECRET must hold the value of the interceptor\'s signing secret');
const REPLAY_WINDOW_SECONDS = 300;
const MAX_BODY_BYTES = 1024 * 1024;

// Toolplane-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
function verified(header, body) {
  const fields = Object.fromEntries(String(header ?? '').split(',').map((field) => field.trim().split('=')));
  const t = Number(fields.t);
  if (!/^\d+$/.test(fields.t ?? '') || Math.abs(Date.now() / 1000 - t) > REPLAY_WINDOW_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${fields.t}.${body}`).digest();
  const given = Buffer.from(/^[0-9a-f]{64}$/.test(fields.v1 ?? '') ? fields.v1 : '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function decide(call) {
  const path = call.arguments?.path;
  const resolved = typeof path === 'string' ? posix.resolve('/', path) : '';
  if (call.phase === 'pre' && (resolved === '/etc' || resolved.startsWith('/etc/'))) {
    return { decision: 'deny', message: `${path} is under /etc, which tools may not touch` };
  }
  return { decision: 'allow' };
}

const answer = (res, status, body) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const server = createServer((req, res) => {
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => ((size += chunk.length) > MAX_BODY_BYTES ? req.destroy() : chunks.push(chunk)));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (req.method !== 'POST' || !verified(req.headers['toolplane-signature'], body)) return answer(res, 401, { error: 'bad signature' });
    let call;
    try { call = JSON.parse(body); } catch { return answer(res, 400, { error: 'not JSON' }); }
    if (call.version !== 1) return answer(res, 400, { error: `unknown version ${call.version}` });
    answer(res, 200, decide(call));
  });
});
server.listen(Number(process.env.PORT ?? 8787), process.env.HOST ?? '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
