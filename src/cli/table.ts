export interface Column<T> {
  header: string;
  value(row: T): string;
  /** Styles the padded cell (colour); the width is measured on the plain text. */
  style?(text: string, row: T): string;
  align?: 'left' | 'right';
  /** Longer values are cut with an ellipsis. */
  maxWidth?: number;
}

/** Rows as text columns aligned under their headers, two spaces apart; the last column is not padded. */
export function formatTable<T>(rows: readonly T[], columns: readonly Column<T>[], options: { headerStyle?: (text: string) => string } = {}): string {
  const cells = rows.map((row) => columns.map((column) => cut(oneLine(column.value(row)), column.maxWidth)));
  const widths = columns.map((column, i) => Math.max(column.header.length, ...cells.map((line) => line[i]!.length)));
  const last = columns.length - 1;
  const pad = (text: string, i: number) => {
    if (columns[i]!.align === 'right') return text.padStart(widths[i]!);
    return i === last ? text : text.padEnd(widths[i]!);
  };
  const header = columns.map((column, i) => pad(column.header, i));
  const lines = [(options.headerStyle ? header.map((h) => options.headerStyle!(h)) : header).join('  ').trimEnd()];
  rows.forEach((row, r) => {
    lines.push(
      columns
        .map((column, i) => {
          const padded = pad(cells[r]![i]!, i);
          if (!column.style) return padded;
          // Style only the text, not the padding, so underlines and backgrounds do not run on.
          const text = cells[r]![i]!;
          return padded.replace(text, column.style(text, row));
        })
        .join('  ')
        .trimEnd(),
    );
  });
  return lines.join('\n') + '\n';
}

/** Label/value lines for one object, labels aligned. */
export function formatFields(fields: readonly [string, string][], options: { labelStyle?: (text: string) => string } = {}): string {
  const width = Math.max(0, ...fields.map(([label]) => label.length));
  return fields.map(([label, value]) => `${(options.labelStyle ?? ((t: string) => t))(`${label}:`.padEnd(width + 1))}  ${value}`).join('\n') + '\n';
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}

function cut(text: string, max: number | undefined): string {
  if (max === undefined || text.length <= max) return text;
  return text.slice(0, Math.max(0, max - 1)) + '…';
}
