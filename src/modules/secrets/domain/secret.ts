export const SECRET_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;
export const MAX_SECRET_BYTES = 64 * 1024;

export interface SecretMetadata {
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Port: stored secrets. Values go in sealed and come out only to resolve a source's env. */
export abstract class SecretRepository {
  abstract put(name: string, value: string, now: Date): Promise<SecretMetadata & { created: boolean }>;
  abstract delete(name: string): Promise<boolean>;
  abstract reveal(name: string): Promise<string | undefined>;
  abstract existing(names: string[]): Promise<Set<string>>;
  abstract list(after: string | undefined, limit: number): Promise<SecretMetadata[]>;
}
