export class RevokeApiKeyCommand {
  constructor(
    readonly id: string,
    readonly actor: string,
  ) {}
}
