import { colors, useColor, type Colors } from './colors.js';
import { formatFields, formatTable, type Column } from './table.js';

/** Where a command writes: results on stdout (tables, or the raw JSON with --json), everything else on stderr. */
export class Output {
  readonly c: Colors;
  /** Colours for stderr, which may be a terminal when stdout is not. */
  readonly ce: Colors;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;

  constructor(
    readonly json: boolean,
    options: { noColor?: boolean; stdout?: NodeJS.WriteStream; stderr?: NodeJS.WriteStream } = {},
  ) {
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    this.c = colors(useColor(this.stdout, process.env, options.noColor));
    this.ce = colors(useColor(this.stderr, process.env, options.noColor));
  }

  write(text: string): void {
    this.stdout.write(text);
  }

  line(text = ''): void {
    this.stdout.write(text + '\n');
  }

  /** A note for the person at the terminal (never part of the parseable output). */
  note(text: string): void {
    this.stderr.write(text + '\n');
  }

  printJson(value: unknown): void {
    this.stdout.write(JSON.stringify(value, null, 2) + '\n');
  }

  table<T>(rows: readonly T[], columns: readonly Column<T>[], empty = '(none)'): void {
    if (rows.length === 0) {
      this.note(this.ce.dim(empty));
      return;
    }
    this.write(formatTable(rows, columns, { headerStyle: (h) => this.c.bold(h) }));
  }

  fields(fields: readonly [string, string | number | boolean | null | undefined][]): void {
    this.write(
      formatFields(
        fields.map(([label, value]) => [label, value === null || value === undefined || value === '' ? this.c.dim('-') : String(value)]),
        { labelStyle: (l) => this.c.bold(l) },
      ),
    );
  }

  /** Tells the reader there is more, and how to get it. */
  moreHint(nextCursor: string | null | undefined): void {
    if (nextCursor) this.note(this.ce.dim(`more: repeat with --cursor ${nextCursor}`));
  }
}

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
