import { hostPolicy, hostPolicyLists } from '../../../shared/host-policy.js';
import { DnsRemoteHostCheck } from './dns-remote-host-check.js';

describe('the registration check of a remote URL', () => {
  const check = (deny: string) => new DnsRemoteHostCheck(hostPolicy(hostPolicyLists(undefined, deny).lists));

  it('refuses the unspecified addresses and IPv4-mapped loopback where loopback is denied, as written or as a name resolves', async () => {
    const loopbackDenied = check('127.0.0.0/8,::1');
    for (const url of ['http://[::]:8080/mcp', 'http://0.0.0.0:8080/mcp', 'http://0:8080/mcp', 'http://[::ffff:0.0.0.0]:8080/mcp', 'http://[::ffff:127.0.0.1]:8080/mcp', 'http://localhost:8080/mcp']) {
      expect({ url, problem: await loopbackDenied.problem(new URL(url)) }).toEqual({ url, problem: expect.stringMatching(/denied \(TOOLPLANE_SOURCE_HOSTS_DENY\)/) });
    }
    expect(await loopbackDenied.problem(new URL('http://192.0.2.1:8080/mcp'))).toBeUndefined();
    expect(await check('none').problem(new URL('http://[::]:8080/mcp'))).toBeUndefined();
  });
});
