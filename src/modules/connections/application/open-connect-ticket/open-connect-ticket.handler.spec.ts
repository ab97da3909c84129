import { rejection } from '../../../../shared/testing/rejection.js';
import { connectionsFixture, OAUTH_SOURCE } from '../../testing/connections-fixture.js';
import { OpenConnectTicketCommand } from './open-connect-ticket.command.js';
import { OpenConnectTicketHandler } from './open-connect-ticket.handler.js';

const BOB = { id: 'bob-id', name: 'bob' };

describe('OpenConnectTicketHandler', () => {
  const setup = () => {
    const f = connectionsFixture();
    const handler = new OpenConnectTicketHandler(f.service);
    const ticketOf = async () => (await f.service.ticket(BOB, OAUTH_SOURCE)).split('/').at(-1)!;
    return { ...f, open: (ticket: string) => handler.execute(new OpenConnectTicketCommand(ticket)), ticketOf };
  };

  it("opens a ticket once: an authorization for the ticket's principal, which connects it when completed", async () => {
    const f = setup();
    const ticket = await f.ticketOf();
    const authorizationUrl = new URL(await f.open(ticket));
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe('https://as.example/authorize');
    expect(authorizationUrl.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(await rejection(f.open(ticket))).toMatchObject({ kind: 'not_found', code: 'CONNECT_TICKET_INVALID' });
    await f.service.complete(f.callbackFor(authorizationUrl.href));
    expect([...f.connections.rows.values()].map((row) => [row.principalId, row.sourceId])).toEqual([[BOB.id, OAUTH_SOURCE.id]]);
  });

  it('refuses a ticket that is malformed, unknown or expired with CONNECT_TICKET_INVALID, and one whose source is gone with SOURCE_NOT_FOUND', async () => {
    const f = setup();
    for (const ticket of ['', 'not a ticket', 'A'.repeat(43)]) expect(await rejection(f.open(ticket))).toMatchObject({ code: 'CONNECT_TICKET_INVALID' });
    const expired = await f.ticketOf();
    f.clock.advance(11 * 60_000);
    expect(await rejection(f.open(expired))).toMatchObject({ code: 'CONNECT_TICKET_INVALID' });
    const orphan = await f.ticketOf();
    f.sources.sources.splice(0, f.sources.sources.length);
    expect(await rejection(f.open(orphan))).toMatchObject({ kind: 'not_found', code: 'SOURCE_NOT_FOUND' });
    expect(f.flows.rows.size).toBe(0);
  });
});
