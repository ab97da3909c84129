/** An API key was revoked or changed (its settings or its secret): whoever caches keys forgets it under its former hash. */
export class ApiKeyChanged {
  constructor(readonly hash: string) {}
}
