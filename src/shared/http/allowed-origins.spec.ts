import { AllowedOrigins } from './allowed-origins.js';

const NO_MACHINE = { addresses: [], hostname: '' };
const MACHINE = { addresses: ['127.0.0.1', '10.1.2.3', '::1', 'fe80::a00:27ff:fe4e:66a1', 'FD00::1'], hostname: 'Build-Box' };

describe('AllowedOrigins', () => {
  describe('the default, on a loopback listen address', () => {
    const allowed = AllowedOrigins.forListener('127.0.0.1', 8080, MACHINE);

    it('admits the loopback names on the listen port, over http only', () => {
      for (const name of ['127.0.0.1', 'localhost', '[::1]']) {
        expect(allowed.allowsHost(`${name}:8080`)).toBe(true);
        expect(allowed.allowsOrigin(`http://${name}:8080`)).toBe(true);
        expect(allowed.allowsOrigin(`https://${name}:8080`)).toBe(false);
      }
      expect(allowed.allowsHost('LOCALHOST:8080')).toBe(true);
      expect(allowed.list()).toEqual(['http://127.0.0.1:8080', 'http://localhost:8080', 'http://[::1]:8080']);
    });

    it('refuses other ports, other names, look-alikes, a missing Host and the opaque origin', () => {
      for (const host of ['127.0.0.1:8081', '127.0.0.1', 'localhost', 'evil.example', 'evil.example:8080', '127.0.0.1.evil.example:8080', 'localhost.:8080', '10.1.2.3:8080', 'build-box:8080', '', undefined]) {
        expect([host, allowed.allowsHost(host)]).toEqual([host, false]);
      }
      for (const origin of ['null', '', 'http://127.0.0.1:8081', 'http://127.0.0.1', 'http://evil.example', 'http://127.0.0.1:8080/', 'http://127.0.0.1:8080.evil.example']) {
        expect([origin, allowed.allowsOrigin(origin)]).toEqual([origin, false]);
      }
    });
  });

  it('adds a non-loopback listen address to the loopback names', () => {
    const allowed = AllowedOrigins.forListener('10.1.2.3', 9000, NO_MACHINE);
    expect(allowed.list()).toEqual(['http://127.0.0.1:9000', 'http://localhost:9000', 'http://[::1]:9000', 'http://10.1.2.3:9000']);
  });

  it.each(['0.0.0.0', '::'])('listening on every interface (%s) admits the machine\'s addresses and hostname on the port', (host) => {
    const allowed = AllowedOrigins.forListener(host, 8080, MACHINE);
    for (const name of ['10.1.2.3', '[fe80::a00:27ff:fe4e:66a1]', '[fd00::1]', 'build-box', 'localhost']) {
      expect([name, allowed.allowsHost(`${name}:8080`), allowed.allowsOrigin(`http://${name}:8080`)]).toEqual([name, true, true]);
    }
    expect(allowed.allowsHost('0.0.0.0:8080')).toBe(false);
    expect(allowed.allowsHost('10.1.2.3:8081')).toBe(false);
  });

  it('configured origins replace the default; default ports may be named in Host or left out', () => {
    const allowed = AllowedOrigins.of(['https://toolplane.example.com', 'http://127.0.0.1:8080']);
    expect(allowed.allowsOrigin('https://toolplane.example.com')).toBe(true);
    expect(allowed.allowsOrigin('http://toolplane.example.com')).toBe(false);
    expect(allowed.allowsHost('toolplane.example.com')).toBe(true);
    expect(allowed.allowsHost('toolplane.example.com:443')).toBe(true);
    expect(allowed.allowsHost('toolplane.example.com:80')).toBe(false);
    expect(allowed.allowsHost('127.0.0.1:8080')).toBe(true);
    expect(allowed.allowsHost('localhost:8080')).toBe(false);
    expect(allowed.allowsOrigin('http://[::1]:8080')).toBe(false);
  });
});
