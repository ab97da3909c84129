/** A key with what is stored of it: its first characters, to recognise it, and its hash. */
export interface ApiKeySecret {
  key: string;
  prefix: string;
  hash: string;
}

/** Port: makes new API keys and hashes presented ones (the hash is what is stored and looked up). */
export abstract class ApiKeySecrets {
  abstract generate(): ApiKeySecret;
  /** What is stored of a key given rather than made here (from a configuration file's reference). */
  abstract of(key: string): ApiKeySecret;
  abstract hash(key: string): string;
}
