import type { InterceptorEngine } from '../intercepted-call.js';
import type { InterceptorKind } from '../interceptor.js';
import type { SchemaChecks } from '../schema-checks.port.js';
import { ApprovalEngine } from './approval-engine.js';
import { CapEngine } from './cap-engine.js';
import { DefaultsEngine } from './defaults-engine.js';
import { DenyEngine } from './deny-engine.js';
import { LockEngine } from './lock-engine.js';
import { OutputSchemaEngine } from './output-schema-engine.js';
import { RedactEngine } from './redact-engine.js';

/** The kinds Toolplane runs itself; `webhook` asks a service. */
export type BuiltinKind = Exclude<InterceptorKind, 'webhook'>;

/** What the built-in engines need from outside the domain. */
export interface BuiltinEnginePorts {
  /** For `output-schema`. */
  schemaChecks: SchemaChecks;
}

/** An engine for every built-in kind, by kind. */
export function builtinEngines(ports: BuiltinEnginePorts): Record<BuiltinKind, InterceptorEngine> {
  return {
    defaults: new DefaultsEngine(),
    lock: new LockEngine(),
    deny: new DenyEngine(),
    redact: new RedactEngine(),
    cap: new CapEngine(),
    'output-schema': new OutputSchemaEngine(ports.schemaChecks),
    approval: new ApprovalEngine(),
  };
}
