// What the benchmarks that print one Markdown table share: its numbers, and the file it goes to.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** `value` with `digits` decimals and thousands separators; — when it is no number. */
export function fmt(value, digits) {
  return Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '—';
}

/** Writes `report` to `out` (its folder made when missing), prints it and says where it went. */
export function writeReport(out, report, log) {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, report);
  console.log(report);
  log(`written to ${out}`);
}
