import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { ProblemDetail, ValidationFailed } from '../domain-error.js';

export interface DtoValidation<T> {
  value: T;
  problems: ProblemDetail[];
}

/**
 * Runs class-validator over a request body and returns every problem with its JSON path,
 * unknown properties included, without throwing — callers merge these with their own checks.
 */
export async function validateDto<T extends object>(type: ClassConstructor<T>, body: unknown): Promise<DtoValidation<T>> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { value: {} as T, problems: [{ path: 'body', message: 'must be a JSON object' }] };
  }
  const value = plainToInstance(type, body, { enableImplicitConversion: false, exposeDefaultValues: false });
  const errors = await validate(value, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  return { value, problems: flatten(errors, '') };
}

export async function validateDtoOrThrow<T extends object>(type: ClassConstructor<T>, body: unknown): Promise<T> {
  const { value, problems } = await validateDto(type, body);
  if (problems.length > 0) throw new ValidationFailed(problems);
  return value;
}

function flatten(errors: ValidationError[], prefix: string): ProblemDetail[] {
  const out: ProblemDetail[] = [];
  for (const error of errors) {
    const path = joinPath(prefix, error.property);
    for (const [rule, message] of Object.entries(error.constraints ?? {})) {
      out.push({ path, message: rule === 'whitelistValidation' ? 'is not a known property' : stripProperty(message, error.property) });
    }
    if (error.children?.length) out.push(...flatten(error.children, path));
  }
  return out;
}

function joinPath(prefix: string, property: string): string {
  if (/^\d+$/.test(property)) return `${prefix}[${property}]`;
  return prefix ? `${prefix}.${property}` : property;
}

/** class-validator messages start with the property name; the path already says it. */
function stripProperty(message: string, property: string): string {
  return message.startsWith(property + ' ') ? message.slice(property.length + 1) : message;
}
