/** The kinds of input an upstream may ask a caller for through Toolplane (as client capabilities). */
export const RELAYED_INPUT_KINDS = ['elicitation', 'sampling', 'roots'] as const;

/** What of a caller's declared capabilities an upstream is told: the relayed input kinds it declared. */
export function relayedInputCapabilities(declared: Record<string, unknown>): Record<string, unknown> {
  const relayed: Record<string, unknown> = {};
  for (const kind of RELAYED_INPUT_KINDS) {
    const capability = declared[kind];
    if (typeof capability === 'object' && capability !== null && !Array.isArray(capability)) relayed[kind] = capability;
  }
  return relayed;
}
