import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * Declares on an input DTO fields it only names, in the order given after its own: each optional
 * in the API reference with its schema and let through validation; the handler checks every value,
 * so each problem is reported at once. For a set of fields a create and a change both take (all of
 * `schemas` unless `fields` names some).
 */
export function optionalFields(dto: abstract new () => object, schemas: Readonly<Record<string, ApiPropertyOptions>>, fields: readonly string[] = Object.keys(schemas)): void {
  for (const field of fields) {
    ApiPropertyOptional(schemas[field])(dto.prototype, field);
    Allow()(dto.prototype, field);
  }
}
