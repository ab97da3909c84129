/** An API key was revoked: whoever caches keys forgets it. */
export class ApiKeyRevoked {
  constructor(readonly hash: string) {}
}
