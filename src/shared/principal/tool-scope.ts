/**
 * The tools a principal may see and call, when it is restricted: source names, qualified tool
 * names and tool groups, each a list of patterns where `*` stands for any run of characters. A
 * list that is absent does not restrict; several present, a tool must match each (the tool list
 * narrows the sources). A principal with `groups` sees and calls tools only through those groups
 * (`/mcp/groups/{name}`, `?group=`, a group's invoke), where the group's locked arguments hold.
 */
export interface ToolScope {
  sources?: string[];
  tools?: string[];
  groups?: string[];
}
