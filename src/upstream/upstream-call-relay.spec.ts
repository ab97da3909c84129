import type { CallListeners, InputRequest, UpstreamLogMessage } from '../modules/execution/domain/tool-invoker.port.js';
import { UpstreamCallRelay, type Attribution } from './upstream-call-relay.js';

describe('UpstreamCallRelay', () => {
  const message = (level: string, data: unknown = level) => ({ level, data, logger: 'test' });
  const listener = (level: 'debug' | 'info' | 'warning' = 'debug') => {
    const heard: UpstreamLogMessage[] = [];
    return { heard, call: { log: { level, onMessage: (m: UpstreamLogMessage) => void heard.push(m) } } as CallListeners };
  };
  const sampling: InputRequest = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } };

  describe('log messages', () => {
    it.each<Attribution>(['exclusive', 'requested'])('%s: relays to the only call listening, at its level or above', (attribution) => {
      const relay = new UpstreamCallRelay(() => attribution);
      const one = listener('info');
      const detach = relay.attach(one.call);
      for (const level of ['debug', 'info', 'error']) relay.receiveLog(message(level));
      detach();
      relay.receiveLog(message('error', 'after'));
      expect(one.heard).toEqual([message('info'), message('error')]);
    });

    it('relays nothing while two calls listen: the message could be either one’s', () => {
      const relay = new UpstreamCallRelay(() => 'requested');
      const [a, b] = [listener(), listener()];
      const detachA = relay.attach(a.call);
      relay.attach(b.call);
      relay.attach({}); // a call that asked for no log messages does not count (a 2026-07-28 server logs for none)
      relay.receiveLog(message('info', 'ambiguous'));
      detachA();
      relay.receiveLog(message('info', 'only b'));
      expect(a.heard).toEqual([]);
      expect(b.heard).toEqual([message('info', 'only b')]);
    });

    it('never relays on a shared 2025-era connection', () => {
      const relay = new UpstreamCallRelay(() => 'shared');
      const one = listener();
      relay.attach(one.call);
      relay.receiveLog(message('error'));
      expect(one.heard).toEqual([]);
    });

    it('drops malformed messages and survives a failing listener', () => {
      const relay = new UpstreamCallRelay(() => 'exclusive');
      relay.attach({
        log: {
          level: 'debug',
          onMessage: () => {
            throw new Error('listener broke');
          },
        },
      });
      for (const params of [undefined, null, [], { level: 'loud', data: 1 }, { level: 'info' }, 'info']) expect(() => relay.receiveLog(params)).not.toThrow();
      expect(() => relay.receiveLog(message('info'))).not.toThrow();
    });
  });

  describe('requests for input', () => {
    it('puts a request to the only call in flight, whose caller answers it', async () => {
      const relay = new UpstreamCallRelay(() => 'shared');
      const asked: InputRequest[] = [];
      relay.attach({ onInputRequest: async (request) => (asked.push(request), { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' }) });
      await expect(relay.answerInputRequest(sampling)).resolves.toMatchObject({ model: 'm' });
      expect(asked).toEqual([sampling]);
    });

    it.each<[string, CallListeners[]]>([
      ['no call is under way', []],
      ['several calls are under way', [{ onInputRequest: async () => ({}) }, {}]],
      ['the caller cannot be asked', [{}]],
    ])('refuses with -32021 naming the capability when %s', async (_case, calls) => {
      const relay = new UpstreamCallRelay(() => 'shared');
      for (const call of calls) relay.attach(call);
      await expect(relay.answerInputRequest(sampling)).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    });

    it("puts a 2026-07-28 task's request to the call running that task, among several, and refuses it when no call here runs it", async () => {
      const relay = new UpstreamCallRelay(() => 'requested');
      const asked: string[] = [];
      relay.attach({ relatedTaskId: 'up-1', onInputRequest: async () => (asked.push('first'), { action: 'accept' }) });
      relay.attach({ relatedTaskId: 'up-2', onInputRequest: async () => (asked.push('second'), { action: 'decline' }) });
      relay.attach({ relatedTaskId: 'up-3' });
      await expect(relay.askForTask('up-2', sampling)).resolves.toEqual({ action: 'decline' });
      expect(asked).toEqual(['second']);
      await expect(relay.askForTask('up-9', sampling)).rejects.toMatchObject({ code: -32021, message: expect.stringContaining('no tool call under way here runs this task') });
      await expect(relay.askForTask('up-3', sampling)).rejects.toMatchObject({ code: -32021, message: expect.stringContaining('cannot be asked') });
    });
  });
});
