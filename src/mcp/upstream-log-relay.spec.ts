import type { UpstreamLogMessage } from '../modules/execution/domain/tool-invoker.port.js';
import { UpstreamLogRelay, type LogAttribution } from './upstream-log-relay.js';

describe('UpstreamLogRelay', () => {
  const message = (level: string, data: unknown = level) => ({ level, data, logger: 'test' });
  const listener = (level: 'debug' | 'info' | 'warning' = 'debug') => {
    const heard: UpstreamLogMessage[] = [];
    return { heard, subscription: { level, onMessage: (m: UpstreamLogMessage) => void heard.push(m) } };
  };

  it.each<LogAttribution>(['exclusive', 'requested'])('%s: relays to the only call listening, at its level or above', (attribution) => {
    const relay = new UpstreamLogRelay(() => attribution);
    const one = listener('info');
    const stop = relay.subscribe(one.subscription);
    for (const level of ['debug', 'info', 'error']) relay.receive(message(level));
    stop();
    relay.receive(message('error', 'after'));
    expect(one.heard).toEqual([message('info'), message('error')]);
  });

  it('relays nothing while two calls listen: the message could be either one’s', () => {
    const relay = new UpstreamLogRelay(() => 'requested');
    const [a, b] = [listener(), listener()];
    const stopA = relay.subscribe(a.subscription);
    relay.subscribe(b.subscription);
    relay.receive(message('info', 'ambiguous'));
    stopA();
    relay.receive(message('info', 'only b'));
    expect(a.heard).toEqual([]);
    expect(b.heard).toEqual([message('info', 'only b')]);
  });

  it('never relays on a shared 2025-era connection', () => {
    const relay = new UpstreamLogRelay(() => 'never');
    const one = listener();
    relay.subscribe(one.subscription);
    relay.receive(message('error'));
    expect(one.heard).toEqual([]);
  });

  it('drops malformed messages and survives a failing listener', () => {
    const relay = new UpstreamLogRelay(() => 'exclusive');
    relay.subscribe({ level: 'debug', onMessage: () => { throw new Error('listener broke'); } });
    for (const params of [undefined, null, [], { level: 'loud', data: 1 }, { level: 'info' }, 'info']) expect(() => relay.receive(params)).not.toThrow();
    expect(() => relay.receive(message('info'))).not.toThrow();
  });
});
