import { Command } from 'commander';
import { registerAuditCommands } from './commands/audit.js';
import { registerCallCommand } from './commands/call.js';
import { registerConnectCommand, registerConnectionCommands } from './commands/connections.js';
import { registerConfigCommands } from './commands/config-as-code.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { registerExecutionCommands } from './commands/executions.js';
import { registerGroupCommands } from './commands/groups.js';
import { registerInterceptorCommands } from './commands/interceptors.js';
import { registerKeyCommands } from './commands/keys.js';
import { registerReviewCommands } from './commands/reviews.js';
import { registerApprovalCommands } from './commands/approvals.js';
import { registerSecretCommands } from './commands/secrets.js';
import { registerServerCommands } from './commands/server.js';
import { registerSourceCommands } from './commands/sources.js';
import { registerToolCommands } from './commands/tools.js';
import { configFilePath, DEFAULT_URL } from './connection-settings.js';
import { CLI_VERSION } from './context.js';
import { terminalText } from './terminal-text.js';

/** The whole command tree; parsing errors throw (exitOverride) so main decides the exit code. */
export function buildProgram(): Command {
  const program = new Command('toolplane')
    .description('Run and operate Toolplane, the control plane for MCP tools')
    .version(CLI_VERSION, '-V, --version')
    .option('--url <url>', `Toolplane's address (env TOOLPLANE_URL; default ${DEFAULT_URL})`)
    .option('--key <key>', 'API key to authenticate with (env TOOLPLANE_API_KEY)')
    .option('--json', 'print the API\'s JSON answer instead of tables')
    .option('--no-color', 'no colours (also when NO_COLOR is set or stdout is not a terminal)')
    .showHelpAfterError('(add --help for usage)')
    // Commander repeats what was typed in its errors: shown like any other text.
    .configureOutput({ outputError: (text, write) => write(terminalText(text)) })
    .exitOverride()
    .addHelpText(
      'after',
      `
Connection: --url and --key win over TOOLPLANE_URL and TOOLPLANE_API_KEY, which win over
${configFilePath()} ({"url": "…", "key": "…"}; the directory follows XDG_CONFIG_HOME).

Exit status: 0 success, 1 the API answered an error (its code is printed) or a check failed,
2 a usage error, 3 the server could not be reached, 4 a called tool reported an error.`,
    );
  program.configureHelp({ sortSubcommands: false, showGlobalOptions: true });

  registerServerCommands(program);
  registerConfigCommands(program);
  registerSourceCommands(program);
  registerSecretCommands(program);
  registerConnectCommand(program);
  registerConnectionCommands(program);
  registerToolCommands(program);
  registerGroupCommands(program);
  registerInterceptorCommands(program);
  registerReviewCommands(program);
  registerApprovalCommands(program);
  registerCallCommand(program);
  registerExecutionCommands(program);
  registerKeyCommands(program);
  registerAuditCommands(program);
  registerDoctorCommand(program);
  return program;
}
