import { Logger } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/client';

/** How long a server may take to acknowledge a 2026-07-28 `subscriptions/listen`. */
export const LISTEN_ACK_TIMEOUT_MS = 5000;
/** Announcements within this window are one change. */
const DEBOUNCE_MS = 300;

const logger = new Logger('mcp');

/**
 * Hears an upstream's announcements that its tools changed, once the connection is up and never
 * on the way of discovery or calls: a 2025-era server's `notifications/tools/list_changed` arrive
 * unsolicited; a 2026-07-28 server is asked with `subscriptions/listen`, in the background and
 * time-boxed. A server whose listen request fails (a plain JSON answer, an error, no answer) is
 * left to scheduled refreshes, with one warning.
 */
export function listenForToolChanges(client: Client, serverLabel: string, onChanged: () => void): void {
  if (!client.getServerCapabilities()?.tools?.listChanged) return;
  let timer: NodeJS.Timeout | undefined;
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    clearTimeout(timer);
    timer = setTimeout(onChanged, DEBOUNCE_MS);
    timer.unref();
  });
  if (client.getProtocolEra() !== 'modern') return;
  client.listen({ toolsListChanged: true }, { timeout: LISTEN_ACK_TIMEOUT_MS }).catch((error: unknown) => {
    logger.warn(`${serverLabel} did not accept a subscription to tool changes (${error instanceof Error ? error.message : String(error)}); its tools are refreshed on schedule`);
  });
}
