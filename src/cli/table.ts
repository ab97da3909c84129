import { indentLines, oneLine, terminalText } from './terminal-text.js';

export interface Column<T> {
  header: string;
  value(row: T): string;
  /** Styles the padded cell (colour); the width is measured on the plain text. */
  style?(text: string, row: T): string;
  align?: 'left' | 'right';
  /** Longer values are cut with an ellipsis. */
  maxWidth?: number;
}

/** A column of a table printed a row at a time: its width is fixed, longer values are cut with an ellipsis. */
export interface FixedColumn<T> extends Column<T> {
  width: number;
}

interface TableOptions {
  headerStyle?: (text: string) => string;
}

/** Rows as text columns aligned under their headers, two spaces apart; the last column is not padded. */
export function formatTable<T>(rows: readonly T[], columns: readonly Column<T>[], options: TableOptions = {}): string {
  const cells = rows.map((row) => columns.map((column) => cell(column.value(row), column.maxWidth)));
  const widths = columns.map((column, i) => Math.max(column.header.length, ...cells.map((line) => line[i]!.length)));
  const lines = [headerLine(columns, widths, options), ...rows.map((row, r) => rowLine(row, cells[r]!, columns, widths))];
  return lines.join('\n') + '\n';
}

/** The header of a table whose rows come later, one at a time (formatFixedRow). */
export function formatFixedHeader<T>(columns: readonly FixedColumn<T>[], options: TableOptions = {}): string {
  return headerLine(columns, fixedWidths(columns), options) + '\n';
}

/** One row under formatFixedHeader: every cell cut to its column's width, so rows line up whatever their values. */
export function formatFixedRow<T>(row: T, columns: readonly FixedColumn<T>[]): string {
  const last = columns.length - 1;
  const cells = columns.map((column, i) => cell(column.value(row), i === last ? column.maxWidth : column.width));
  return rowLine(row, cells, columns, fixedWidths(columns)) + '\n';
}

/** Label/value lines for one object, labels aligned; a value's further lines go on under its first. */
export function formatFields(fields: readonly [string, string][], options: { labelStyle?: (text: string) => string } = {}): string {
  const width = Math.max(0, ...fields.map(([label]) => label.length));
  const label = (text: string) => (options.labelStyle ?? ((t: string) => t))(`${text}:`.padEnd(width + 1));
  return fields.map(([name, value]) => `${label(name)}  ${indentLines(terminalText(value), width + 3)}`).join('\n') + '\n';
}

/** A cell as shown: on one line, every control visible, cut to `max`; its width is then its length. */
function cell(value: string, max: number | undefined): string {
  return cut(terminalText(oneLine(value)), max);
}

function fixedWidths<T>(columns: readonly FixedColumn<T>[]): number[] {
  return columns.map((column) => Math.max(column.header.length, column.width));
}

function pad<T>(text: string, columns: readonly Column<T>[], widths: readonly number[], i: number): string {
  if (columns[i]!.align === 'right') return text.padStart(widths[i]!);
  return i === columns.length - 1 ? text : text.padEnd(widths[i]!);
}

function headerLine<T>(columns: readonly Column<T>[], widths: readonly number[], options: TableOptions): string {
  const header = columns.map((column, i) => pad(column.header, columns, widths, i));
  return (options.headerStyle ? header.map((h) => options.headerStyle!(h)) : header).join('  ').trimEnd();
}

function rowLine<T>(row: T, cells: readonly string[], columns: readonly Column<T>[], widths: readonly number[]): string {
  return columns
    .map((column, i) => {
      const text = cells[i]!;
      const padded = pad(text, columns, widths, i);
      if (!column.style) return padded;
      // Style only the text, not the padding, so underlines and backgrounds do not run on.
      return padded.replace(text, () => column.style!(text, row));
    })
    .join('  ')
    .trimEnd();
}

function cut(text: string, max: number | undefined): string {
  if (max === undefined || text.length <= max) return text;
  return text.slice(0, Math.max(0, max - 1)) + '…';
}
