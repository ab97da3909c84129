import type { ProblemDetail } from '../../../shared/domain-error.js';
import { ENV_NAME_PATTERN, type EnvReferencePolicy } from '../../../config/env-reference-policy.js';
import type { VariableDeclaration } from './manifest/env-declaration.js';
import { parseTemplate, type ValueReference } from './value-template.js';
/** RFC 9110 token characters. */
export const HEADER_NAME_PATTERN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the transport owns; a source may not set them. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
]);
const MAX_VALUE_LENGTH = 32 * 1024;

export interface VariableCheck {
  problems: ProblemDetail[];
  references: ValueReference[];
}

/**
 * Checks env or header values against what the manifest declares: names well-formed,
 * required ones present (or defaulted), secret ones given by reference only, choices and
 * formats respected, references well-formed and `${env:…}` ones to variables `envReferences`
 * lets through. Existence of referenced secrets is checked by the caller, which has the store.
 */
export function checkVariables(
  field: 'env' | 'headers',
  given: Record<string, string>,
  declarations: readonly VariableDeclaration[],
  manifestFile: string | undefined,
  envReferences: EnvReferencePolicy,
): VariableCheck {
  const problems: ProblemDetail[] = [];
  const references: ValueReference[] = [];
  const declared = new Map(
    declarations.map((d) => [field === 'headers' ? d.name.toLowerCase() : d.name, d] as const),
  );
  const seenHeaders = new Set<string>();

  for (const [name, value] of Object.entries(given)) {
    const path = `${field}.${name}`;
    if (field === 'env' && !ENV_NAME_PATTERN.test(name)) {
      problems.push({ path, message: 'is not a valid environment variable name ([A-Za-z_][A-Za-z0-9_]*)' });
      continue;
    }
    if (field === 'headers') {
      const lower = name.toLowerCase();
      if (!HEADER_NAME_PATTERN.test(name)) {
        problems.push({ path, message: 'is not a valid HTTP header name' });
        continue;
      }
      if (RESERVED_HEADERS.has(lower)) {
        problems.push({ path, message: 'is set by the transport and cannot be configured' });
        continue;
      }
      if (seenHeaders.has(lower)) problems.push({ path, message: 'is given twice (header names are case-insensitive)' });
      seenHeaders.add(lower);
      if (/[\r\n\0]/.test(value)) problems.push({ path, message: 'must not contain line breaks or NUL' });
    }
    if (value.length > MAX_VALUE_LENGTH) {
      problems.push({ path, message: `is longer than ${MAX_VALUE_LENGTH} characters` });
      continue;
    }
    if (field === 'env' && value.includes('\0')) problems.push({ path, message: 'must not contain NUL' });
    const parsed = parseTemplate(value);
    for (const problem of parsed.problems) problems.push({ path, message: problem });
    for (const ref of parsed.references) {
      const refusal = ref.kind === 'env' ? envReferences.refusal(ref.name) : undefined;
      if (refusal) problems.push({ path, message: `refers to \${env:${ref.name}}, ${refusal}` });
    }
    references.push(...parsed.references);

    const declaration = declared.get(field === 'headers' ? name.toLowerCase() : name);
    if (!declaration) continue;
    if (declaration.isSecret && parsed.references.length === 0) {
      problems.push({
        path,
        message: `is declared secret in ${manifestFile}: give it as a reference such as \${secret:${name}}, never as a literal value`,
      });
    }
    if (parsed.references.length === 0) problems.push(...checkLiteral(path, value, declaration));
  }

  for (const declaration of declarations) {
    const key = field === 'headers' ? declaration.name.toLowerCase() : declaration.name;
    const isGiven = Object.keys(given).some((n) => (field === 'headers' ? n.toLowerCase() : n) === key);
    if (declaration.isRequired && !isGiven && declaration.default === undefined && declaration.value === undefined) {
      problems.push({
        path: `${field}.${declaration.name}`,
        message: `is required by ${manifestFile}${declaration.description ? ` (${declaration.description.slice(0, 200)})` : ''}`,
      });
    }
  }
  return { problems, references };
}

function checkLiteral(path: string, value: string, declaration: VariableDeclaration): ProblemDetail[] {
  if (declaration.choices && declaration.choices.length > 0 && !declaration.choices.includes(value)) {
    return [{ path, message: `must be one of ${declaration.choices.join(', ')}` }];
  }
  if (declaration.format === 'number' && (value.trim() === '' || Number.isNaN(Number(value)))) {
    return [{ path, message: 'must be a number' }];
  }
  if (declaration.format === 'boolean' && !['true', 'false'].includes(value)) {
    return [{ path, message: 'must be true or false' }];
  }
  return [];
}

/** Values a launch gets when the request leaves a declared variable out. */
export function withDeclaredDefaults(given: Record<string, string>, declarations: readonly VariableDeclaration[]): Record<string, string> {
  const result = { ...given };
  for (const d of declarations) {
    if (result[d.name] === undefined) {
      const fallback = d.value ?? d.default;
      if (fallback !== undefined) result[d.name] = fallback;
    }
  }
  return result;
}
