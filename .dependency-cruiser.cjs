/**
 * The module map of Toolplane, checked in `npm test` (`npm run deps`). docs/architecture.md draws
 * the same map; change both together.
 *
 *   composition root (src/*.ts, src/openapi)  sees everything
 *   cli                                       a client of the REST API (and `serve`, which runs the root)
 *   ops                                       adapters of ports the kernel and modules declare
 *   upstream                                  the MCP client: adapters of the modules' upstream ports
 *   modules/*                                 bounded contexts, each only on those below it (MODULES)
 *   config, shared                            the kernel: they import no module
 */

/** Each module and the modules it may import: a layering, so no cycle can form. */
const MODULES = {
  audit: [],
  secrets: ['audit'],
  access: ['audit', 'secrets'],
  inventory: ['access', 'audit'],
  sources: ['audit', 'inventory', 'secrets'],
  connections: ['access', 'audit', 'secrets', 'sources'],
  groups: ['access', 'audit', 'inventory', 'sources'],
  catalog: ['access', 'groups', 'inventory'],
  executions: ['audit'],
  interceptors: ['access', 'audit', 'executions', 'groups', 'inventory', 'secrets', 'sources'],
  execution: ['access', 'catalog', 'executions', 'groups', 'interceptors', 'inventory', 'sources'],
  approvals: ['audit', 'execution', 'executions', 'interceptors', 'secrets'],
  configuration: ['access', 'audit', 'groups', 'interceptors', 'secrets', 'sources'],
  'mcp-server': ['access', 'catalog', 'execution', 'executions', 'inventory', 'sources'],
};

const FRAMEWORKS = '^node_modules/(@nestjs|typeorm|@modelcontextprotocol|class-validator|class-transformer|fastify|@fastify|pg)/';

const moduleRules = Object.entries(MODULES).map(([name, allowed]) => ({
  name: `module-${name}`,
  comment: `${name} may import only ${allowed.length ? allowed.join(', ') : 'no other module'} (see MODULES)`,
  severity: 'error',
  from: { path: `^src/modules/${name}/` },
  to: { path: '^src/modules/', pathNot: [`^src/modules/${name}/`, ...allowed.map((other) => `^src/modules/${other}/`)] },
}));

module.exports = {
  forbidden: [
    ...moduleRules,
    {
      name: 'no-cycle',
      comment: 'no file imports a file that imports it back, at any distance',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'kernel-imports-no-module',
      comment: 'shared and config are below every module: they import nothing of Toolplane above them',
      severity: 'error',
      from: { path: '^src/(shared|config)/' },
      to: { path: '^src/', pathNot: '^src/(shared|config)/' },
    },
    {
      name: 'config-on-kernel-only',
      comment: 'config reads the environment with kernel parsers; the kernel never reads config',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/config/' },
    },
    {
      name: 'modules-not-on-adapters',
      comment: 'modules declare ports; upstream, ops and the composition root adapt them, never the other way',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { path: '^src/(ops|cli|console-host|openapi|api-types)/|^src/[^/]+\\.ts$' },
    },
    {
      name: 'upstream-on-ports-only',
      comment: "upstream implements the modules' ports: it may import their domain, nothing else of them",
      severity: 'error',
      from: { path: '^src/upstream/' },
      to: { path: '^src/modules/[^/]+/(application|infrastructure|interface)/|^src/(ops|cli)/|^src/[^/]+\\.ts$' },
    },
    {
      name: 'only-mcp-server-reaches-upstream',
      comment: 'a module reaches upstreams through its ports; the MCP server relays prompts and resources through upstream directly',
      severity: 'error',
      from: { path: '^src/modules/', pathNot: '^src/modules/mcp-server/' },
      to: { path: '^src/upstream/' },
    },
    {
      name: 'application-not-on-infrastructure',
      comment: 'use cases depend on ports (domain) and queries on read ports, never on their adapters or on the interface',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/application/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^src/modules/[^/]+/(infrastructure|interface)/' },
    },
    {
      name: 'domain-is-plain',
      comment: 'domain code is plain TypeScript: no framework, ORM or SDK, and nothing of the outer layers',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/domain/', pathNot: '\\.spec\\.ts$' },
      to: { path: [FRAMEWORKS, '^src/modules/[^/]+/(application|infrastructure|interface)/', '^src/upstream/'] },
    },
    {
      name: 'testing-in-specs-only',
      comment: 'the in-memory fakes (src/shared/testing, src/upstream/testing, src/modules/*/testing) serve specs and benchmarks, never the code that runs',
      severity: 'error',
      from: { path: '^src/', pathNot: '/testing/' },
      to: { path: '^src/(modules/[^/]+/|shared/|upstream/)testing/' },
    },
    {
      name: 'sdk-client-in-upstream-only',
      comment: "only src/upstream speaks to MCP servers (the SDK's client)",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/upstream/' },
      to: { path: '^node_modules/@modelcontextprotocol/client/' },
    },
    {
      name: 'sdk-server-in-mcp-server-only',
      comment: "only the MCP server module answers MCP clients (the SDK's server)",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/modules/mcp-server/' },
      to: { path: '^node_modules/@modelcontextprotocol/server/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Specs may reach across layers to build what they test; the rules hold the code that runs.
    exclude: { path: '(^dist/|\\.d\\.ts$|\\.(e2e-)?spec\\.ts$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
