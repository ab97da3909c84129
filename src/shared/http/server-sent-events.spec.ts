import { ServerSentEvents } from './server-sent-events.js';

describe('ServerSentEvents', () => {
  const textOf = async (events: ServerSentEvents) => {
    let text = '';
    for await (const chunk of events.body().getStream()) text += String(chunk);
    return text;
  };

  it('writes named events with JSON data, a keep-alive comment while nothing is said, and nothing once ended', async () => {
    const events = new ServerSentEvents(20);
    events.send('status', { status: 'working' });
    await new Promise((resolve) => setTimeout(resolve, 55));
    events.send('result', { id: 'x', text: 'two\nlines' });
    events.end();
    events.send('late', {});
    events.end();
    const text = await textOf(events);
    expect(text.startsWith('event: status\ndata: {"status":"working"}\n\n: keep-alive\n\n: keep-alive\n\n')).toBe(true);
    expect(text.endsWith('event: result\ndata: {"id":"x","text":"two\\nlines"}\n\n')).toBe(true);
    expect(text).not.toContain('late');
    expect(events.ended).toBe(true);
  });
});
