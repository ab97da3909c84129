import { registerDecorator, ValidateIf, ValidationOptions } from 'class-validator';

/**
 * May be left out, but null is a value like any other and the field's rules refuse it. For a
 * field the REST contract does not call nullable (IsOptional would take null for absent, and
 * the null would reach the stored source).
 */
export function IsOmittable(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined, options);
}

/** A JSON object whose values are all strings, with a bounded number of entries; the message names the entries that are not. */
export function IsStringMap(maxEntries: number, options?: ValidationOptions): PropertyDecorator {
  const shape = `must be an object of at most ${maxEntries} string values`;
  return (target, propertyKey) =>
    registerDecorator({
      name: 'isStringMap',
      target: target.constructor,
      propertyName: propertyKey as string,
      options: {
        message: ({ value }) => {
          if (!isObject(value) || Object.keys(value).length > maxEntries) return shape;
          const bad = Object.entries(value).filter(([k, v]) => !goodEntry(k, v));
          const named = bad.slice(0, 5).map(([k, v]) => (typeof v === 'string' ? `a name of ${k.length} characters (1-256)` : `${k.slice(0, 100)} is not a string`));
          return `${shape}: ${named.join(', ')}${bad.length > 5 ? ` and ${bad.length - 5} more` : ''}`;
        },
        ...options,
      },
      validator: {
        validate(value: unknown) {
          return isObject(value) && Object.keys(value).length <= maxEntries && Object.entries(value).every(([k, v]) => goodEntry(k, v));
        },
      },
    });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function goodEntry(key: string, value: unknown): boolean {
  return key.length > 0 && key.length <= 256 && typeof value === 'string';
}
