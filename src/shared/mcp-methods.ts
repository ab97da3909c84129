/** The requests and notifications of the MCP specification that a client sends a server. */
export const MCP_SERVER_METHODS: readonly string[] = [
  'initialize',
  'ping',
  'server/discover',
  'subscriptions/listen',
  'logging/setLevel',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/roots/list_changed',
];

/** Every method of the MCP specification, whichever side sends it. */
export const MCP_METHODS: readonly string[] = [
  ...MCP_SERVER_METHODS,
  'sampling/createMessage',
  'elicitation/create',
  'roots/list',
  'notifications/progress',
  'notifications/message',
];
