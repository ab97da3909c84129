// The docs' example policy service for webhook interceptors (docs/examples/interceptor-webhook.mjs),
// started on loopback for the benchmarks that call a webhook.
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { BENCH_ENV } from './echo-toolplane.mjs';
import { freePort, startProcess, waitForHttp } from './processes.mjs';

/** The service of the checkout at `root`, keyed by `secret`, on a free port: ready once a signed request gets its answer. */
export async function startPolicyService(root, secret) {
  const port = await freePort();
  const handle = startProcess('policy service', process.execPath, [join(root, 'docs/examples/interceptor-webhook.mjs')], { env: { ...BENCH_ENV, WEBHOOK_SECRET: secret, PORT: String(port) }, cwd: root });
  const url = `http://127.0.0.1:${port}/`;
  const body = JSON.stringify({ version: 1, phase: 'pre', interceptor: 'probe', arguments: {} });
  const t = String(Math.floor(Date.now() / 1000));
  const signature = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
  await waitForHttp(handle, url, { init: { method: 'POST', headers: { 'content-type': 'application/json', 'toolplane-signature': signature }, body } });
  return { handle, url };
}
