/**
 * Env and header values are templates: literal text with `${secret:NAME}` (a stored secret),
 * `${env:NAME}` (Toolplane's own environment) and `${user-secret:NAME}` (the calling principal's
 * own stored value, rendered per call) references.
 */
export type ReferenceKind = 'secret' | 'env' | 'user-secret';

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
const REFERENCE_BODY = /^(secret|env|user-secret):([A-Za-z_][A-Za-z0-9_.-]{0,127})$/;

export function parseTemplate(value: string): ParsedTemplate {
  const references: ValueReference[] = [];
  const problems: string[] = [];
  let rest = value;
  for (const match of value.matchAll(TOKEN)) {
    const body = match[1] ?? '';
    const ref = REFERENCE_BODY.exec(body.trim());
    if (!ref) {
      problems.push(`"\${${body.slice(0, 40)}}" is not a reference: use \${secret:NAME}, \${env:NAME} or \${user-secret:NAME}`);
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

const USER_SECRET_REFERENCE = /\$\{\s*user-secret:([A-Za-z_][A-Za-z0-9_.-]{0,127})\s*\}/g;

/**
 * Replaces only the `${user-secret:NAME}` references of a value whose other references are already
 * rendered (and whose rendered text may hold anything, `${` included).
 */
export function renderUserSecrets(value: string, lookup: (name: string) => string): string {
  return value.replace(USER_SECRET_REFERENCE, (_whole, name: string) => lookup(name));
}

/** The reference as written in a template (`${kind:name}`). */
export function referenceText(ref: ValueReference): string {
  return `\${${ref.kind}:${ref.name}}`;
}

/** How a response describes a value without revealing it. */
export type ValueOrigin = 'literal' | 'reference' | 'mixed' | 'default';

export function originOf(value: string): ValueOrigin {
  const parsed = parseTemplate(value);
  if (parsed.references.length === 0) return 'literal';
  return parsed.hasLiteralText ? 'mixed' : 'reference';
}
