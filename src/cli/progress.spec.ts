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
});
