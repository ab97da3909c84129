/**
 * A variable a manifest declares: an environment variable of a stdio package, or an
 * HTTP header of a remote. Requests are checked against these declarations.
 */
export interface VariableDeclaration {
  name: string;
  description?: string;
  isRequired: boolean;
  isSecret: boolean;
  default?: string;
  /** server.json input format: string, number, boolean or filepath. */
  format?: string;
  choices?: string[];
  /**
   * A value fixed by the manifest (server.json `value`), not meant to be configured by users.
   * `{name}` placeholders refer to the entry's `variables` and are kept verbatim.
   */
  value?: string;
}
