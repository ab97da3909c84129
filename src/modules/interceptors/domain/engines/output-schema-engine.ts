import { canonicalJson, sha256Hex } from '../../../../shared/canonical-json.js';
import type { ProblemDetail } from '../../../../shared/domain-error.js';
import type { InterceptedCall, InterceptorEngine, InterceptorVerdict } from '../intercepted-call.js';
import type { InterceptorPhase, InterceptorSpec } from '../interceptor.js';
import type { SchemaCheck, SchemaChecks } from '../schema-checks.port.js';

/** Compiled schemas kept by a digest of their text (most recently used kept), besides those kept by the schema object itself. */
const REMEMBERED_SCHEMAS = 1000;
/** How many problems a message or a warning lists. */
const LISTED_PROBLEMS = 3;

/**
 * `output-schema`: checks the result's structuredContent against the tool's outputSchema. A result
 * without structuredContent from a tool that declares one is a mismatch too; a tool error is not
 * checked. A mismatch turns the result into an error (`onMismatch: error`, the default) or is only
 * noted (`warn`). Each schema is compiled once: kept by its object while the catalog holds it, and
 * by its text for the last 1,000 schemas. A schema that cannot be compiled is a failure of the
 * interceptor (its `onError` decides).
 */
export class OutputSchemaEngine implements InterceptorEngine {
  readonly kind = 'output-schema';
  private readonly byObject = new WeakMap<object, Promise<SchemaCheck>>();
  private readonly byText = new Map<string, Promise<SchemaCheck>>();

  constructor(private readonly checks: SchemaChecks) {}

  async run(interceptor: InterceptorSpec, _phase: InterceptorPhase, call: InterceptedCall): Promise<InterceptorVerdict> {
    if (interceptor.kind !== 'output-schema') throw new Error(`the output-schema engine was given a ${interceptor.kind} interceptor`);
    const schema = call.tool.outputSchema;
    const result = call.result;
    // A tool error is not held to the schema (as MCP clients check only results that are no error).
    if (!schema || !result || call.isError) return { decision: 'allow' };
    let problems: ProblemDetail[];
    if (result.structuredContent === undefined) {
      problems = [{ path: 'structuredContent', message: 'is missing: the tool declares an outputSchema' }];
    } else {
      const check = await this.compiled(schema);
      if (!check.usable) throw new Error(`the outputSchema of ${call.tool.qualifiedName} cannot be used: ${check.reason}`);
      problems = check.problems(result.structuredContent, 'structuredContent');
    }
    if (problems.length === 0) return { decision: 'allow' };
    const listed = problems
      .slice(0, LISTED_PROBLEMS)
      .map((problem) => `${problem.path} ${problem.message}`)
      .join('; ');
    const more = problems.length > LISTED_PROBLEMS ? ` (and ${problems.length - LISTED_PROBLEMS} more)` : '';
    const summary = `The result of ${call.tool.qualifiedName} does not match its outputSchema: ${listed}${more}.`;
    if (interceptor.settings.onMismatch === 'warn') return { decision: 'allow', warning: summary };
    return { decision: 'deny', message: summary, details: problems };
  }

  private compiled(schema: Record<string, unknown>): Promise<SchemaCheck> {
    const known = this.byObject.get(schema);
    if (known) return known;
    // By digest: a schema's text may be large.
    const text = sha256Hex(canonicalJson(schema));
    let compiling = this.byText.get(text);
    if (compiling) this.byText.delete(text);
    else {
      compiling = this.checks.compile(schema);
      // A failed compiler is asked again next time.
      compiling.catch(() => {
        if (this.byText.get(text) === compiling) this.byText.delete(text);
        if (this.byObject.get(schema) === compiling) this.byObject.delete(schema);
      });
    }
    this.byText.set(text, compiling);
    if (this.byText.size > REMEMBERED_SCHEMAS) this.byText.delete(this.byText.keys().next().value!);
    this.byObject.set(schema, compiling);
    return compiling;
  }
}
