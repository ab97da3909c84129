/** Runs work in one database transaction; repositories called inside join it. */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}

/** Time and identity, injectable so handlers stay deterministic under test. */
export abstract class Clock {
  abstract now(): Date;
}

export abstract class IdGenerator {
  abstract next(): string;
}
