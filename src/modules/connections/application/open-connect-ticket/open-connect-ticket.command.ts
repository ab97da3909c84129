import { Command } from '@nestjs/cqrs';

/** Opens a connect link: its ticket, taken once, starts the authorization of the principal it was made for. */
export class OpenConnectTicketCommand extends Command<string> {
  constructor(readonly ticket: string) {
    super();
  }
}
