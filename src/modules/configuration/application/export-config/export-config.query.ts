import { Query } from '@nestjs/cqrs';

export interface ExportedConfig {
  sources: Record<string, unknown>[];
  groups?: Record<string, unknown>[];
  interceptors?: Record<string, unknown>[];
  keys?: Record<string, unknown>[];
}

/** The configuration as a file would declare it: `{ sources: [...], groups: [...], interceptors: [...], keys: [...] }`, no secret value in it. */
export class ExportConfigQuery extends Query<ExportedConfig> {
  constructor(
    /** With the active API keys (for a caller that may manage them). */
    readonly includeKeys = false,
    /** With the tool groups (for a caller that may manage them). */
    readonly includeGroups = false,
    /** With the interceptors (for a caller that may manage them). */
    readonly includeInterceptors = false,
  ) {
    super();
  }
}
