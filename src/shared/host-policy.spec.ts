import fc from 'fast-check';
import { DEFAULT_DENIED_HOSTS, hostPolicy, hostPolicyLists } from './host-policy.js';

const policyOf = (allow?: string, deny?: string) => {
  const { lists, problems } = hostPolicyLists(allow, deny);
  expect(problems).toEqual([]);
  return hostPolicy(lists);
};

describe('the source host policy', () => {
  it('denies link-local and cloud metadata endpoints by default, allows loopback and the rest', () => {
    const policy = policyOf();
    for (const host of ['169.254.169.254', '169.254.0.1', '[fe80::1]', '[fd00:ec2::254]', '100.100.100.200', 'metadata.google.internal', 'METADATA.goog.', '[::ffff:169.254.169.254]', '0.0.0.0']) {
      expect({ host, refused: policy.refusesHost(host) !== undefined }).toEqual({ host, refused: true });
    }
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '10.0.0.5', 'api.example.com', '100.100.100.201']) {
      expect({ host, refused: policy.refusesHost(host) }).toEqual({ host, refused: undefined });
    }
  });

  it('checks the addresses a name resolves to, and says which', () => {
    const policy = policyOf();
    expect(policy.refusesAddress('innocent.example', '169.254.169.254')).toBe('innocent.example resolves to 169.254.169.254, which is denied (TOOLPLANE_SOURCE_HOSTS_DENY)');
    expect(policy.refusesAddress('innocent.example', '::ffff:169.254.169.254')).toMatch(/denied/);
    expect(policy.refusesAddress('innocent.example', '93.184.216.34')).toBeUndefined();
  });

  it('replaces the default with a deny list, which may include it ("default") or be empty ("none")', () => {
    const loopbackDenied = policyOf(undefined, 'default,127.0.0.0/8,::1,*.internal.example');
    expect(loopbackDenied.refusesAddress('localhost', '127.0.0.1')).toMatch(/denied/);
    expect(loopbackDenied.refusesAddress('localhost', '::1')).toMatch(/denied/);
    expect(loopbackDenied.refusesHost('169.254.169.254')).toMatch(/denied/);
    expect(loopbackDenied.refusesHost('db.internal.example')).toMatch(/denied/);
    expect(loopbackDenied.refusesHost('internal.example')).toBeUndefined();
    expect(policyOf(undefined, 'none').refusesHost('169.254.169.254')).toBeUndefined();
    expect(policyOf(undefined, '10.0.0.0/8').refusesHost('169.254.169.254')).toBeUndefined();
  });

  it('counts the unspecified addresses (0.0.0.0, ::, in any spelling) as the loopback they reach', () => {
    // Spellings as a URL's hostname gives them, and as DNS answers.
    const unspecified = ['0.0.0.0', '[::]', '[0:0:0:0:0:0:0:0]', '[::ffff:0.0.0.0]', '[::ffff:0:0]', '[::0.0.0.0]'].map((host) => new URL(`http://${host}:1/`).hostname);
    const mapped = ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::ffff:127.0.0.2]'].map((host) => new URL(`http://${host}:1/`).hostname);
    for (const deny of ['127.0.0.0/8,::1', '127.0.0.1', '::1', 'localhost,127.0.0.1,::1']) {
      const policy = policyOf(undefined, deny);
      for (const host of unspecified) expect({ deny, host, refused: policy.refusesHost(host) }).toEqual({ deny, host, refused: expect.stringMatching(/is denied \(TOOLPLANE_SOURCE_HOSTS_DENY\)/) });
      for (const address of ['0.0.0.0', '::', '::ffff:0.0.0.0', '0:0:0:0:0:0:0:0']) {
        expect({ deny, address, refused: policy.refusesAddress('rebound.example', address) }).toEqual({ deny, address, refused: expect.stringMatching(/^rebound\.example resolves to .*, which is denied/) });
      }
    }
    const loopback = policyOf(undefined, '127.0.0.0/8,::1');
    for (const host of mapped) expect({ host, refused: loopback.refusesHost(host) }).toEqual({ host, refused: expect.stringMatching(/denied/) });
    // Allowed where loopback is, and by default denied like the rest of "this network".
    expect(policyOf(undefined, '10.0.0.0/8').refusesHost('[::]')).toBeUndefined();
    expect(policyOf(undefined, 'none').refusesHost('0.0.0.0')).toBeUndefined();
    for (const host of unspecified) expect({ host, refused: policyOf().refusesHost(host) }).toEqual({ host, refused: expect.stringMatching(/denied/) });
    // An allow list naming loopback does not admit them: only what it names.
    expect(policyOf('127.0.0.1', 'none').refusesHost('[::]')).toMatch(/not in TOOLPLANE_SOURCE_HOSTS_ALLOW/);
  });

  it('with an allow list, admits only what it names, and deny still wins', () => {
    const policy = policyOf('*.tools.example,10.1.0.0/16,127.0.0.1', undefined);
    expect(policy.refusesAddress('a.tools.example', '203.0.113.9')).toBeUndefined();
    expect(policy.refusesAddress('other.example', '10.1.2.3')).toBeUndefined();
    expect(policy.refusesAddress('other.example', '10.2.0.1')).toBe('other.example (10.2.0.1) is not in TOOLPLANE_SOURCE_HOSTS_ALLOW');
    expect(policy.refusesHost('127.0.0.1')).toBeUndefined();
    expect(policy.refusesAddress('a.tools.example', '169.254.169.254')).toMatch(/denied/);
  });

  it('reports every entry it cannot read', () => {
    const { problems } = hostPolicyLists('good.example,bad host,10.0.0.0/33', '1.2.3.4/x,::1/129');
    expect(problems).toHaveLength(4);
  });

  it('never throws on arbitrary hosts, addresses and entries', () => {
    const policy = policyOf('*.a.example,192.0.2.0/24', 'default');
    fc.assert(
      fc.property(fc.string(), fc.oneof(fc.ipV4(), fc.ipV6(), fc.string()), (host, address) => {
        policy.refusesHost(host);
        policy.refusesAddress(host, address);
      }),
    );
    fc.assert(fc.property(fc.array(fc.string(), { maxLength: 5 }), (entries) => void hostPolicyLists(entries.join(','), entries.join(','))));
  });

  it('denies every address of the default ranges (property)', () => {
    const policy = policyOf();
    fc.assert(fc.property(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), (c, d) => expect(policy.refusesHost(`169.254.${c}.${d}`)).toBeDefined()));
    expect(DEFAULT_DENIED_HOSTS).toContain('169.254.0.0/16');
  });
});
