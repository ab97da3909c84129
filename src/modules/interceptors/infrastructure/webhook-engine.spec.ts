import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { APP_CONFIG } from '../../../config/app-config.js';
import { hostPolicyLists } from '../../../shared/host-policy.js';
import { SecretRepository } from '../../secrets/domain/secret.js';
import { InMemorySecretRepository } from '../../secrets/testing/in-memory-secret-repository.js';
import { anInterceptedCall } from '../testing/engine-fixtures.js';
import { WebhookEngine } from './webhook-engine.js';

const call = anInterceptedCall();

describe('WebhookEngine as a provider', () => {
  it('is built by Nest from SecretRepository and APP_CONFIG (its host policy), and refuses a denied host before any request', async () => {
    @Module({
      providers: [
        WebhookEngine,
        { provide: SecretRepository, useValue: new InMemorySecretRepository({ key: 'value' }) },
        { provide: APP_CONFIG, useValue: { sourceHosts: hostPolicyLists(undefined, '192.0.2.0/24').lists } },
      ],
    })
    class Host {}
    const app = await NestFactory.createApplicationContext(Host, { logger: false });
    try {
      const engine = app.get(WebhookEngine);
      expect(engine.kind).toBe('webhook');
      const spec = { name: 'hook', description: '', phase: 'pre', order: 0, scope: {}, onError: 'deny', timeoutMs: 1000, enabled: true, kind: 'webhook', settings: { url: 'http://192.0.2.7/hook', signingSecret: 'key' } } as const;
      await expect(engine.run(spec, 'pre', call, new AbortController().signal)).rejects.toThrow('connection refused by the source host policy: 192.0.2.7 is denied (TOOLPLANE_SOURCE_HOSTS_DENY)');
      await expect(engine.run({ ...spec, settings: { url: 'ftp://example.com/', signingSecret: 'key' } }, 'pre', call, new AbortController().signal)).rejects.toThrow('the webhook URL must be http or https, not ftp:');
      await expect(engine.run({ ...spec, settings: { url: 'https://u:p@example.com/', signingSecret: 'key' } }, 'pre', call, new AbortController().signal)).rejects.toThrow('may not carry a user name or password');
    } finally {
      await app.close();
    }
  });
});
