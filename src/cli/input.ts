import { readFileSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { UsageError } from './errors.js';

/** Reads FILE, or standard input for "-". */
export function readInputFile(path: string, what: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} from ${path === '-' ? 'standard input' : path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** A JSON value given inline or as `@FILE` (`@-`: standard input). */
export function parseJsonOption(value: string, option: string): unknown {
  const text = value.startsWith('@') ? readInputFile(value.slice(1), option) : value;
  try {
    return JSON.parse(text);
  } catch (error) {
    const where = value.startsWith('@') ? ` in ${value.slice(1)}` : '';
    throw new UsageError(`${option} is not valid JSON${where}: ${(error as Error).message}`);
  }
}

export function parseJsonObjectOption(value: string, option: string): Record<string, unknown> {
  const parsed = parseJsonOption(value, option);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`${option} must be a JSON object, e.g. '{"message": "hi"}'`);
  return parsed as Record<string, unknown>;
}

/** Commander argument parser for positive integers. */
export function positiveInt(option: string) {
  return integerFrom(1, `${option} must be a positive integer.`);
}

/** Commander argument parser for integers from 0 on. */
export function nonNegativeInt(option: string) {
  return integerFrom(0, `${option} must be 0 or a positive integer.`);
}

function integerFrom(min: number, message: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n) || n < min) throw new InvalidArgumentError(message);
    return n;
  };
}

/** Commander collector for repeatable `KEY=VALUE` options. */
export function keyValue(option: string) {
  return (value: string, previous: Record<string, string> = {}): Record<string, string> => {
    const at = value.indexOf('=');
    if (at <= 0) throw new InvalidArgumentError(`${option} takes NAME=VALUE.`);
    return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
  };
}

export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** What a listing that pages takes: how many items a page, and the cursor of the page to show. */
export interface PageOptions {
  limit?: number;
  cursor?: string;
}

/** Adds a listing's --limit (`perPage` describes it) and --cursor to `command`. */
export function withPageOptions(command: Command, perPage: string): Command {
  return command.option('--limit <n>', perPage, positiveInt('--limit')).option('--cursor <cursor>', 'the page after this cursor (printed under a full page)');
}
