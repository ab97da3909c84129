/**
 * The tools a principal may see and call, when it is restricted: source names and qualified tool
 * names, each a list of patterns where `*` stands for any run of characters. A list that is absent
 * does not restrict; both present, a tool must match both (the tool list narrows the sources).
 */
export interface ToolScope {
  sources?: string[];
  tools?: string[];
}
