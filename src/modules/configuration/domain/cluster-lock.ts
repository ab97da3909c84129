/** Port: runs work while no other Toolplane sharing the database runs work under the same lock. */
export abstract class ConfigApplyLock {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}
