import { until } from '../testing/until.js';
import { ServerSentEvents } from './server-sent-events.js';

describe('ServerSentEvents', () => {
  it('writes named events with JSON data, a keep-alive comment while nothing is said, and nothing once ended', async () => {
    const events = new ServerSentEvents(20);
    const stream = events.body().getStream();
    let text = '';
    stream.on('data', (chunk) => (text += String(chunk)));
    const finished = new Promise((resolve) => stream.on('end', resolve));
    events.send('status', { status: 'working' });
    await until(() => text.split(': keep-alive').length > 2);
    events.send('result', { id: 'x', text: 'two\nlines' });
    events.end();
    events.send('late', {});
    events.end();
    await finished;
    expect(text.startsWith('event: status\ndata: {"status":"working"}\n\n: keep-alive\n\n: keep-alive\n\n')).toBe(true);
    expect(text.endsWith('event: result\ndata: {"id":"x","text":"two\\nlines"}\n\n')).toBe(true);
    expect(text).not.toContain('late');
    expect(events.ended).toBe(true);
  });
});
