/** How Toolplane introduces itself to upstream MCP servers. */
export const TOOLPLANE_CLIENT_NAME = 'toolplane';
export const TOOLPLANE_CLIENT_VERSION = '0.1.0';

export const TOOLPLANE_CLIENT_INFO = { name: TOOLPLANE_CLIENT_NAME, version: TOOLPLANE_CLIENT_VERSION } as const;
