import { applyStyles, colors, useColor, type Colors } from './colors.js';
import { formatFields, formatFixedHeader, formatFixedRow, formatTable, type Column, type FixedColumn } from './table.js';
import { jsonText, terminalText } from './terminal-text.js';

/**
 * Where a command writes: results on stdout (tables, or the raw JSON with --json), everything else
 * on stderr. Every text for a person goes through `terminalText` here, whatever it holds; JSON
 * through `jsonText`.
 */
export class Output {
  readonly c: Colors;
  /** Colours for stderr, which may be a terminal when stdout is not. */
  readonly ce: Colors;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;

  constructor(
    readonly json: boolean,
    options: { noColor?: boolean; stdout?: NodeJS.WriteStream; stderr?: NodeJS.WriteStream; env?: NodeJS.ProcessEnv } = {},
  ) {
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    this.c = colors(useColor(this.stdout, options.env ?? process.env, options.noColor));
    this.ce = colors(useColor(this.stderr, options.env ?? process.env, options.noColor));
  }

  write(text: string): void {
    this.stdout.write(shown(text));
  }

  line(text = ''): void {
    this.stdout.write(shown(text) + '\n');
  }

  /** A note for the person at the terminal (never part of the parseable output). */
  note(text: string): void {
    this.stderr.write(shown(text) + '\n');
  }

  /** Text given as it is (a file's content, e.g. YAML), made harmless only when stdout is a terminal. */
  verbatim(text: string): void {
    this.stdout.write(this.stdout.isTTY ? shown(text) : text);
  }

  printJson(value: unknown): void {
    this.stdout.write(jsonText(value, 2) + '\n');
  }

  /** One value as one line of JSON (NDJSON). */
  jsonLine(value: unknown): void {
    this.stdout.write(jsonText(value) + '\n');
  }

  table<T>(rows: readonly T[], columns: readonly Column<T>[], empty = '(none)'): void {
    if (rows.length === 0) {
      this.note(this.ce.dim(empty));
      return;
    }
    this.write(formatTable(rows, columns, { headerStyle: (h) => this.c.bold(h) }));
  }

  /** The header of a table whose rows are printed one at a time as they come (`fixedRow`). */
  fixedHeader<T>(columns: readonly FixedColumn<T>[]): void {
    this.write(formatFixedHeader(columns, { headerStyle: (h) => this.c.bold(h) }));
  }

  fixedRow<T>(row: T, columns: readonly FixedColumn<T>[]): void {
    this.write(formatFixedRow(row, columns));
  }

  fields(fields: readonly [string, string | number | boolean | null | undefined][]): void {
    this.write(
      formatFields(
        fields.map(([label, value]) => [label, value === null || value === undefined || value === '' ? this.c.dim('-') : String(value)]),
        { labelStyle: (l) => this.c.bold(l) },
      ),
    );
  }

  /** A command's result: as the API gave it with --json, else as `show` tells it to a person. */
  result<T>(value: T, show: (value: T) => void): void {
    if (this.json) this.printJson(value);
    else show(value);
  }

  /** A page of a listing: as the API gave it with --json, else its items as a table and how to get the next page. */
  page<T>(page: { items: readonly T[]; nextCursor?: string | null }, columns: readonly Column<T>[], empty: string): void {
    this.result(page, ({ items, nextCursor }) => {
      this.table(items, columns, empty);
      this.moreHint(nextCursor);
    });
  }

  /** Tells the reader there is more, and how to get it. */
  moreHint(nextCursor: string | null | undefined): void {
    if (nextCursor) this.note(this.ce.dim(`more: repeat with --cursor ${nextCursor}`));
  }
}

/** Text as the terminal gets it: harmless, then with the CLI's own styles. */
function shown(text: string): string {
  return applyStyles(terminalText(text));
}

/** `1 source`, `2 sources`. */
export function countOf(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}

/**
 * A failure's text (a source's last error is often an upstream's stderr) as one line for a table
 * or a check: its first line and, when a trace follows, the line that names the error; never the
 * trace's frames. Cut to `max` characters.
 */
export function failureSummary(text: string, max = 200): string {
  const [first = '', ...rest] = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const named = rest.filter((line) => ERROR_LINE.test(line)).at(-1);
  const summary = named && !first.includes(named) ? `${first} … ${named}` : first;
  return summary.length > max ? `${summary.slice(0, max - 1)}…` : summary;
}

/** `Error: boom`, `ValueError: x`, `Exception in thread …`, `panic: x`: the line of a trace that says what went wrong. */
const ERROR_LINE = /^(?:[\w$.]*(?:Error|Exception)\b|panic:|fatal:)/;

export function orDash(value: unknown): string {
  return value === null || value === undefined || value === '' ? '-' : String(value);
}

/** `2026-11-25T13:09:52.123Z` → `2026-11-25 13:09:52` (UTC, as the API gives it). */
export function shortTime(value: unknown): string {
  if (typeof value !== 'string') return '-';
  return value.replace('T', ' ').replace(/\.\d+Z$/, 'Z').replace(/Z$/, '');
}

export function formatDuration(ms: unknown): string {
  if (typeof ms !== 'number') return '-';
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
