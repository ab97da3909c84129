import { getMetadataStorage, validate, type ValidationError } from 'class-validator';
import { nearMiss } from '../near-miss.js';
import { ProblemDetail, ValidationFailed } from '../domain-error.js';

export interface DtoValidation<T> {
  /** The body's properties that passed: one with a problem is left out, so no code reads a value of the wrong type. */
  value: T;
  problems: ProblemDetail[];
}

/**
 * Runs class-validator over a request body and returns every problem with its JSON path,
 * unknown properties included, without throwing — callers merge these with their own checks.
 */
export type ClassConstructor<T> = new () => T;

export async function validateDto<T extends object>(type: ClassConstructor<T>, body: unknown): Promise<DtoValidation<T>> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { value: {} as T, problems: [{ path: 'body', message: 'must be a JSON object' }] };
  }
  const value = instantiate(type, body as Record<string, unknown>);
  const errors = await validate(value, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  for (const error of errors) delete (value as Record<string, unknown>)[error.property];
  return { value, problems: flatten(errors, '') };
}

export async function validateDtoOrThrow<T extends object>(type: ClassConstructor<T>, body: unknown): Promise<T> {
  const { value, problems } = await validateDto(type, body);
  if (problems.length > 0) throw new ValidationFailed(problems);
  return value;
}

const PLAIN_TYPES: ReadonlySet<unknown> = new Set([Object, Array, String, Number, Boolean]);

/**
 * The body as an instance of the DTO class (what class-validator checks), values taken as they came;
 * a property declared as another DTO class (nested, validated with @ValidateNested) becomes an
 * instance of it. Not class-transformer's plainToInstance: it reads an object's `constructor`
 * property as its class, so a caller's `{"constructor": "x"}` anywhere in a body answered 500.
 * Arrays of nested DTOs are not supported (no DTO declares one).
 */
function instantiate<T extends object>(type: ClassConstructor<T>, plain: Record<string, unknown>): T {
  const instance = new type();
  for (const key of Object.keys(plain)) {
    let value = plain[key];
    const declared: unknown = Reflect.getMetadata('design:type', type.prototype as object, key);
    if (typeof declared === 'function' && !PLAIN_TYPES.has(declared) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      value = instantiate(declared as ClassConstructor<object>, value as Record<string, unknown>);
    }
    Object.defineProperty(instance, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return instance;
}

function flatten(errors: ValidationError[], prefix: string): ProblemDetail[] {
  const out: ProblemDetail[] = [];
  for (const error of errors) {
    const path = joinPath(prefix, error.property);
    for (const [rule, message] of Object.entries(error.constraints ?? {})) {
      out.push({ path, message: rule === 'whitelistValidation' ? unknownProperty(error) : stripProperty(message, error.property) });
    }
    if (error.children?.length) out.push(...flatten(error.children, path));
  }
  return out;
}

/** An unknown property, with the known one it nearly spells (`plugindir`: `pluginDir`). */
function unknownProperty(error: ValidationError): string {
  const type = (error.target as object | undefined)?.constructor;
  const known = type ? [...new Set(getMetadataStorage().getTargetValidationMetadatas(type, '', true, false).map((rule) => rule.propertyName))] : [];
  const meant = nearMiss(error.property, known);
  return meant === undefined ? 'is not a known property' : `is not a known property; did you mean \`${meant}\`?`;
}

function joinPath(prefix: string, property: string): string {
  if (/^\d+$/.test(property)) return `${prefix}[${property}]`;
  return prefix ? `${prefix}.${property}` : property;
}

/** class-validator messages start with the property name; the path already says it. */
function stripProperty(message: string, property: string): string {
  return message.startsWith(property + ' ') ? message.slice(property.length + 1) : message;
}
