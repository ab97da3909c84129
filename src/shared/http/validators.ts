import { registerDecorator, ValidationOptions } from 'class-validator';

/** A JSON object whose values are all strings, with a bounded number of entries. */
export function IsStringMap(maxEntries: number, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyKey) =>
    registerDecorator({
      name: 'isStringMap',
      target: target.constructor,
      propertyName: propertyKey as string,
      options: { message: `must be an object of at most ${maxEntries} string values`, ...options },
      validator: {
        validate(value: unknown) {
          if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
          const entries = Object.entries(value);
          return entries.length <= maxEntries && entries.every(([k, v]) => k.length > 0 && k.length <= 256 && typeof v === 'string');
        },
      },
    });
}
