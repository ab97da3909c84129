import { Query } from '@nestjs/cqrs';

/** The configuration as a file would declare it: `{ sources: [...] }`, no secret value in it. */
export class ExportConfigQuery extends Query<{ sources: Record<string, unknown>[] }> {}
