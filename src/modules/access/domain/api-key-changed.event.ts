/** An API key was revoked or changed (its settings or its secret): whoever caches keys forgets it under its former hash. */
export class ApiKeyChanged {
  constructor(readonly hash: string) {}
}

/** An API key was revoked: its principal (`principalId`, the key's id) is gone for good, and what it kept of its own with it. */
export class ApiKeyRevoked {
  constructor(readonly principalId: string) {}
}
