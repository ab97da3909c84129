/** Port: makes new API keys and hashes presented ones (the hash is what is stored and looked up). */
export abstract class ApiKeySecrets {
  abstract generate(): { key: string; prefix: string; hash: string };
  abstract hash(key: string): string;
}
