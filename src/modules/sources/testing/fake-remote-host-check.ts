import { RemoteHostCheck } from '../domain/ports.js';

/** Remote hosts a source may reach: any but those denied here (by host name, as written in the URL). */
export class FakeRemoteHostCheck extends RemoteHostCheck {
  private readonly denied = new Map<string, string>();

  deny(hostname: string, reason: string): this {
    this.denied.set(hostname, reason);
    return this;
  }

  async problem(url: URL): Promise<string | undefined> {
    return this.denied.get(url.hostname);
  }
}
