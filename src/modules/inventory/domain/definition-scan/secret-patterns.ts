import type { TextPattern } from './text-patterns.js';

/** `secret-path`: files that hold keys and credentials, and requests for keys, tokens and passwords. */
export const SECRET_PATTERNS: readonly TextPattern[] = [
  {
    pattern: new RegExp(
      [
        String.raw`\.ssh\b`,
        String.raw`\bid_(?:rsa|dsa|ecdsa|ed25519)\b`,
        String.raw`\.aws/(?:credentials|config)\b`,
        String.raw`\.kube/config\b`,
        String.raw`\.docker/config\.json`,
        String.raw`\.(?:npmrc|netrc|pypirc|pgpass|git-credentials)\b`,
        String.raw`/etc/(?:passwd|shadow|sudoers)\b`,
        String.raw`\.gnupg\b`,
        String.raw`application_default_credentials\.json`,
        String.raw`\.config/gcloud\b`,
        String.raw`\.azure/`,
        String.raw`\baccesstokens\.json`,
        String.raw`\bmsal_token_cache`,
        String.raw`\.cursor/mcp\.json`,
        String.raw`\bclaude_desktop_config\.json`,
        String.raw`\.(?:bash|zsh)_history\b`,
        String.raw`\bwallet\.dat\b`,
        // a .env file, not process.env or .environment
        String.raw`(?:^|[\s'"\x60(/~])\.env(?:\.[a-z]+)?\b(?!\.)`,
      ].join('|'),
    ),
    severity: 'high',
    says: 'names a file that holds keys or credentials',
  },
  {
    pattern: /\b(?:provide|pass|include|send|give|enter|paste|share|put|read|attach|insert|supply|copy|add|upload|forward)\s+(?:\S+\s+){0,4}?(?:private\s+keys?|secret\s+keys?|api[\s_-]?keys?|access\s+tokens?|auth(?:entication)?\s+tokens?|bearer\s+tokens?|passwords?|passphrases?|seed\s+phrases?|mnemonics?|session\s+cookies?|credentials)\b/,
    severity: 'high',
    says: 'asks for a key, token, password or credentials',
  },
];
