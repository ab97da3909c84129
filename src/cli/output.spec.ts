import fc from 'fast-check';
import { Output, countOf, failureSummary } from './output.js';

/** Controls a terminal acts on: C0 but newline and tab, DEL, C1, line/paragraph separators, bidi embeddings, overrides and isolates. */
// eslint-disable-next-line no-control-regex -- the controls are what this looks for
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
/** The escape sequences of the CLI's own colours. */
// eslint-disable-next-line no-control-regex -- the controls are what this looks for
const OWN_STYLES = /\u001b\[(?:1|2|22|31|32|33|36|39)m/g;

function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  return { stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream, text: () => written.join('') };
}

function output(options: { json?: boolean; tty?: boolean } = {}) {
  const stdout = fakeStream(options.tty ?? false);
  const stderr = fakeStream(options.tty ?? false);
  const out = new Output(options.json ?? false, { stdout: stdout.stream, stderr: stderr.stream, env: {} });
  return { out, text: () => stdout.text() + stderr.text() };
}

/** Every way a command prints text from outside for a person to read. */
function printEverywhere(out: Output, text: string): void {
  out.line(text);
  out.write(text);
  out.note(text);
  out.note(out.ce.red(text));
  out.fields([
    ['label', text],
    ['styled', out.c.red(text)],
  ]);
  out.table([{ text }], [
    { header: 'A', value: (r) => r.text, style: (t) => out.c.green(t) },
    { header: 'B', value: (r) => r.text, maxWidth: 10 },
  ]);
}

// Any code point, and the pieces escape sequences are made of, often.
const hostileChar = fc.oneof(
  fc.constantFrom('\u001b', '\u0007', '\u009b', '\u009d', '\r', '\n', '\t', '\u007f', '\u0000', '\u202e', '\u2067', '\u2028', ']', '[', ';', '52', '0;', '2J', '31m', '\uE000'),
  fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
);
const hostileText = fc.string({ unit: hostileChar, maxLength: 60 });

describe('text from outside on the terminal', () => {
  it('never reaches it with a control character but newline and tab, in any human-readable output', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const { out, text: printed } = output();
        printEverywhere(out, text);
        expect(printed()).not.toMatch(FORBIDDEN);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps only the CLI\'s own colours on a terminal: the text from outside cannot forge one', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const plain = output({ tty: false });
        const coloured = output({ tty: true });
        printEverywhere(plain.out, text);
        printEverywhere(coloured.out, text);
        expect(coloured.text()).toMatch(OWN_STYLES);
        // Taking the own colours away leaves exactly what is printed without colours.
        expect(coloured.text().replace(OWN_STYLES, '')).toBe(plain.text());
      }),
      { numRuns: 300 },
    );
  });

  it('shows each control it neutralised as a visible escape, and keeps a multi-line text\'s lines and tabs', () => {
    const { out, text } = output();
    out.write('result \u001b]52;c;cHduZWQ=\u0007\u001b[2J\r\nsecond\tline \u009b31m \u202eabc\rX\n');
    expect(text()).toBe('result \\x1b]52;c;cHduZWQ=\\x07\\x1b[2J\nsecond\tline \\x9b31m \\u202eabc\\x0dX\n');
  });

  it('keeps a table cell and a field on one line, so text from outside cannot add a row or a label', () => {
    const { out, text } = output();
    out.table([{ name: 'a\nSTATUS: ok', state: 'x\ty' }], [
      { header: 'NAME', value: (r) => r.name },
      { header: 'STATE', value: (r) => r.state },
    ]);
    out.fields([
      ['title', '\u001b]0;title\u0007Evil'],
      ['description', 'first line\nstatus: succeeded'],
      ['after', 'x'],
    ]);
    expect(text()).toBe(
      [
        'NAME          STATE',
        'a STATUS: ok  x y',
        'title:        \\x1b]0;title\\x07Evil',
        'description:  first line',
        '              status: succeeded',
        'after:        x',
        '',
      ].join('\n'),
    );
  });

  it('measures table widths on the text as shown, escapes included', () => {
    const { out, text } = output();
    out.table([{ a: '\u001b[2J', b: 'x' }, { a: 'ab', b: 'y' }], [
      { header: 'A', value: (r) => r.a },
      { header: 'B', value: (r) => r.b },
    ]);
    expect(text()).toBe(['A        B', '\\x1b[2J  x', 'ab       y', ''].join('\n'));
  });
});

describe('--json', () => {
  it('parses back to the same value, with no raw C1, DEL, separators or bidi controls', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: hostileChar }), (value) => {
        const { out, text } = output({ json: true });
        out.printJson(value);
        out.jsonLine(value);
        const printed = text();
        expect(printed).not.toMatch(FORBIDDEN_IN_JSON);
        const lines = printed.split('\n');
        const compact = lines.at(-2)!;
        const prettyText = lines.slice(0, -2).join('\n');
        // The same value JSON itself gives back (-0 is 0 in JSON).
        const same = JSON.parse(JSON.stringify(value));
        expect(JSON.parse(prettyText)).toEqual(same);
        expect(JSON.parse(compact)).toEqual(same);
      }),
      { numRuns: 500 },
    );
  });

  it('escapes C1 controls and the separators as \\u escapes', () => {
    const { out, text } = output({ json: true });
    out.printJson({ text: '\u009b2J\u0085\u2028\u202e\u007f' });
    expect(text()).toBe('{\n  "text": "\\u009b2J\\u0085\\u2028\\u202e\\u007f"\n}\n');
  });
});

// Pretty-printed JSON has newlines of its own; nothing else.
// eslint-disable-next-line no-control-regex -- the controls are what this looks for
const FORBIDDEN_IN_JSON = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

describe('counts', () => {
  it('agree with their number', () => {
    expect(countOf(0, 'source')).toBe('0 sources');
    expect(countOf(1, 'source')).toBe('1 source');
    expect(countOf(2, 'failure')).toBe('2 failures');
    expect(countOf(1, 'process', 'processes')).toBe('1 process');
    expect(countOf(3, 'process', 'processes')).toBe('3 processes');
  });
});

describe('a failure on one line', () => {
  it('keeps the first line and the line naming the error, never a trace\'s frames', () => {
    const node = [
      'process exited with code 1: [eval]:1',
      "throw new Error('boom')",
      '^',
      '',
      'Error: boom',
      '    at [eval]:1:7',
      '    at runScriptInThisContext (node:internal/vm:209:10)',
      '',
      'Node.js v20.19.0',
    ].join('\n');
    expect(failureSummary(node)).toBe('process exited with code 1: [eval]:1 … Error: boom');
    const python = 'process exited with code 1: Traceback (most recent call last):\n  File "server.py", line 3, in <module>\n    main()\nValueError: no token';
    expect(failureSummary(python)).toBe('process exited with code 1: Traceback (most recent call last): … ValueError: no token');
    expect(failureSummary('connection refused')).toBe('connection refused');
    expect(failureSummary('TypeError: x is not a function\n    at f (a.js:1:1)')).toBe('TypeError: x is not a function');
    expect(failureSummary('x'.repeat(300))).toHaveLength(200);
  });
});
