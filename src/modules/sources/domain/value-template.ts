/**
 * Env and header values are templates: literal text with `${secret:NAME}` (a stored secret)
 * and `${env:NAME}` (Toolplane's own environment) references.
 */
export type ReferenceKind = 'secret' | 'env';

export interface ValueReference {
  kind: ReferenceKind;
  name: string;
}

export interface ParsedTemplate {
  references: ValueReference[];
  /** Non-empty when the template has a `${...}` that is not a valid reference. */
  problems: string[];
  hasLiteralText: boolean;
}

const TOKEN = /\$\{([^}]*)\}/g;
const REFERENCE_BODY = /^(secret|env):([A-Za-z_][A-Za-z0-9_.-]{0,127})$/;

export function parseTemplate(value: string): ParsedTemplate {
  const references: ValueReference[] = [];
  const problems: string[] = [];
  let rest = value;
  for (const match of value.matchAll(TOKEN)) {
    const body = match[1] ?? '';
    const ref = REFERENCE_BODY.exec(body.trim());
    if (!ref) {
      problems.push(`"\${${body.slice(0, 40)}}" is not a reference: use \${secret:NAME} or \${env:NAME}`);
    } else {
      references.push({ kind: ref[1] as ReferenceKind, name: ref[2]! });
    }
    rest = rest.replace(match[0], '');
  }
  if (rest.includes('${')) problems.push('has an unterminated "${"');
  return { references, problems, hasLiteralText: rest.length > 0 };
}

/** Replaces every reference through `lookup`; call only on a template that parsed cleanly. */
export function renderTemplate(value: string, lookup: (ref: ValueReference) => string): string {
  return value.replace(TOKEN, (_whole, body: string) => {
    const ref = REFERENCE_BODY.exec(body.trim());
    if (!ref) throw new Error('renderTemplate called on an invalid template');
    return lookup({ kind: ref[1] as ReferenceKind, name: ref[2]! });
  });
}

/** How a response describes a value without revealing it. */
export type ValueOrigin = 'literal' | 'reference' | 'mixed' | 'default';

export function originOf(value: string): ValueOrigin {
  const parsed = parseTemplate(value);
  if (parsed.references.length === 0) return 'literal';
  return parsed.hasLiteralText ? 'mixed' : 'reference';
}
