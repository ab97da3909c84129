import { startProgress } from './progress.js';

function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  return { stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream, text: () => written.join('') };
}

describe('progress on stderr', () => {
  it('draws a spinner with the elapsed time on a terminal, keeps news above it and clears it at the end', async () => {
    const { stream, text } = fakeStream(true);
    const progress = startProgress('calling everything__echo', stream);
    await new Promise((r) => setTimeout(r, 250));
    progress.report('step 1 of 2');
    progress.stop();
    expect(text().startsWith('\r\u001b[2K')).toBe(true);
    expect(text()).toMatch(/^\r.{4}. calling everything__echo 0\.0s/);
    expect(text()).toMatch(/calling everything__echo [0-9]\.[1-9]s/);
    expect(text()).toContain('\r\u001b[2Kstep 1 of 2\n');
    expect(text().endsWith('\r\u001b[2K')).toBe(true);
  });

  it('draws nothing elsewhere, and writes news as plain lines', () => {
    const { stream, text } = fakeStream(false);
    const progress = startProgress('calling everything__echo', stream);
    progress.report('step 1 of 2');
    progress.stop();
    expect(text()).toBe('step 1 of 2\n');
  });

  it('prints an upstream\'s message as one harmless line, on a terminal and elsewhere', () => {
    for (const tty of [true, false]) {
      const { stream, text } = fakeStream(tty);
      const progress = startProgress('calling x', stream);
      progress.report('step\u001b]0;title\u0007 1\r\n\u001b[2Jdone \u009b31m');
      progress.stop();
      expect(text()).toContain('step\\x1b]0;title\\x07 1 \\x1b[2Jdone \\x9b31m\n');
      // What is left are the spinner's own line clearing codes.
      // eslint-disable-next-line no-control-regex -- the controls are what this looks for
      expect(text().replaceAll('\r\u001b[2K', '')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    }
  });
});
