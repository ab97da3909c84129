export class GetApiKeyQuery {
  constructor(readonly id: string) {}
}
