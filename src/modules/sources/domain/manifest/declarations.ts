import type { VariableDeclaration } from './env-declaration.js';
import { truncate } from './manifest-path.js';
import type { ManifestProblem } from './plugin-manifest.js';

/** A declaration as a (schema-valid) manifest spells it, in server.json vocabulary. */
export interface DeclarationInput {
  name: string;
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  default?: string;
  format?: string;
  choices?: string[];
  value?: string;
}

export interface DeclarationOptions {
  kind: 'environment variable' | 'header';
  /** HTTP header names are case-insensitive, environment variable names are not. */
  caseInsensitive: boolean;
  /** Path of the item at `index`, or of one of its fields. */
  at: (index: number, field?: string) => string;
}

const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Normalises a declaration list and reports duplicates and defaults that contradict the declaration. */
export function collectDeclarations(
  items: readonly DeclarationInput[],
  options: DeclarationOptions,
): { declarations: VariableDeclaration[]; problems: ManifestProblem[] } {
  const declarations: VariableDeclaration[] = [];
  const problems: ManifestProblem[] = [];
  const firstIndex = new Map<string, number>();

  items.forEach((item, index) => {
    const key = options.caseInsensitive ? item.name.toLowerCase() : item.name;
    const earlier = firstIndex.get(key);
    if (earlier !== undefined) {
      problems.push({
        path: options.at(index, 'name'),
        message: `duplicate ${options.kind} '${truncate(item.name)}' (already declared at index ${earlier})`,
      });
      return;
    }
    firstIndex.set(key, index);

    const defaultProblem = item.default === undefined ? undefined : checkDefault(item.default, item);
    if (defaultProblem) problems.push({ path: options.at(index, 'default'), message: defaultProblem });

    declarations.push(normalise(item));
  });

  return { declarations, problems };
}

function checkDefault(value: string, item: DeclarationInput): string | undefined {
  if (item.choices && item.choices.length > 0 && !item.choices.includes(value)) {
    return `must be one of the choices: ${item.choices.map((c) => truncate(c)).join(', ')}`;
  }
  if (item.format === 'number' && !DECIMAL.test(value)) return 'must be a decimal number, as the format is number';
  if (item.format === 'boolean' && value !== 'true' && value !== 'false') {
    return 'must be "true" or "false", as the format is boolean';
  }
  return undefined;
}

function normalise(item: DeclarationInput): VariableDeclaration {
  const declaration: VariableDeclaration = {
    name: item.name,
    isRequired: item.isRequired ?? false,
    isSecret: item.isSecret ?? false,
  };
  if (item.description !== undefined) declaration.description = item.description;
  if (item.default !== undefined) declaration.default = item.default;
  if (item.format !== undefined) declaration.format = item.format;
  if (item.choices !== undefined) declaration.choices = [...item.choices];
  if (item.value !== undefined) declaration.value = item.value;
  return declaration;
}
