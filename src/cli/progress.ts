import { oneLine, terminalText } from './terminal-text.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Progress {
  /** A line of news from the server (a progress notification), kept above the spinner. */
  report(message: string): void;
  stop(): void;
}

/**
 * A spinner with the elapsed time on stderr while something runs, when stderr is a terminal;
 * elsewhere (pipes, logs, CI) nothing is drawn, and news is written as plain lines. The label and
 * the news are shown harmless and on one line: the spinner's own codes are the only ones written.
 */
export function startProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = Date.now();
  const shown = (text: string) => terminalText(oneLine(text));
  if (!stream.isTTY) {
    return { report: (message) => stream.write(`${shown(message)}\n`), stop: () => undefined };
  }
  const title = shown(label);
  let frame = 0;
  const draw = () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    stream.write(`\r\u001b[2K${FRAMES[frame++ % FRAMES.length]} ${title} ${seconds}s`);
  };
  draw();
  const timer = setInterval(draw, 100);
  timer.unref();
  const clear = () => stream.write('\r\u001b[2K');
  return {
    report: (message) => {
      clear();
      stream.write(`${shown(message)}\n`);
      draw();
    },
    stop: () => {
      clearInterval(timer);
      clear();
    },
  };
}
