import { Query } from '@nestjs/cqrs';

/** What a principal would be told when calling a tool, and which rule decides it. */
export interface AccessExplanation {
  principal: { id: string; name: string; kind: string; roles: string[]; allowedSources: string[] | null; allowedTools: string[] | null; allowedGroups: string[] | null };
  tool: string;
  /** The group the call would go through; null: outside any group. */
  group: string | null;
  allowed: boolean;
  /** The rule that decided: the key's state, the role's permission, or the key's tool scope. */
  rule: string;
}

/** ExplainAccess: may `principal` (an API key id, or `admin`) call `tool` (a qualified name), through `group` or outside any? */
export class ExplainAccessQuery extends Query<AccessExplanation> {
  constructor(
    readonly principal: string,
    readonly tool: string,
    readonly group?: string,
  ) {
    super();
  }
}
