/**
 * The catalog's rules as SQL conditions over `source_tools t JOIN sources s ON s.id = t.source_id`,
 * for what must count in the database (the metrics of the catalog).
 */

/** A tool of the catalog at all: not retired with its source, of a source not removed. */
export const LIVE_TOOL = 't.retired_at IS NULL AND s.deleted_at IS NULL';

/** `readOnlyHint` is true, the JSON boolean: any other value, or none, is not (CASE: the cast runs only on a boolean). */
const READ_ONLY_HINT = `(CASE jsonb_typeof(t.annotations -> 'readOnlyHint') WHEN 'boolean' THEN (t.annotations ->> 'readOnlyHint')::boolean ELSE false END)`;

/**
 * The SQL twin of isUsable (domain/tool-usability.ts): an active tool whose definition is
 * approved, enabled, of an enabled source, whose arguments Toolplane can check, and — on a read-only source — annotated
 * `readOnlyHint: true`. `usable-tool-sql.e2e-spec.ts` holds the two equal over any state of a tool and
 * its source.
 */
export const USABLE_TOOL = `(t.status = 'active' AND t.review_state = 'approved' AND s.enabled AND t.enabled AND t.unusable_reason IS NULL AND (NOT s.read_only OR ${READ_ONLY_HINT}))`;
