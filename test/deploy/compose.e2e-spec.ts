import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { readConfigText } from '../../src/modules/configuration/interface/config-document.js';
import { ROOT } from '../helpers/upstreams.js';

const COMPOSE_FILE = resolve(ROOT, 'docker-compose.yml');
/** Images the compose file may pull: Docker's official images only (Toolplane's own is built). */
const OFFICIAL_IMAGE = /^(postgres|caddy|nginx|haproxy|node):[\w.-]+$/;

interface Service {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  volumes?: string[];
  healthcheck?: { test: unknown };
  security_opt?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const replicas = Object.entries(services).filter(([, service]) => service.build !== undefined);
/** The host file a service mounts at `target`. */
const mounted = (service: Service, target: string) => {
  const volume = service.volumes?.find((v) => v.split(':')[1] === target);
  return volume === undefined ? undefined : resolve(ROOT, volume.split(':')[0]!);
};

/** Whether `docker compose` (the v2 plugin) is here; the daemon is not needed for `config`. */
const dockerCompose = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status === 0;

describe('docker-compose.yml', () => {
  (dockerCompose ? it : it.skip)('is accepted by docker compose config', () => {
    const result = spawnSync('docker', ['compose', '-f', COMPOSE_FILE, 'config', '--quiet'], {
      encoding: 'utf8',
      env: { ...process.env, TOOLPLANE_ADMIN_KEY: 'compose-check-admin-key', TOOLPLANE_ENCRYPTION_KEY: '0'.repeat(64) },
    });
    expect([result.status, result.stderr]).toEqual([0, expect.any(String)]);
  });

  it('runs PostgreSQL, two Toolplane replicas built here, a load balancer and an example MCP server, all with health checks', () => {
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(replicas.map(([name]) => name).sort()).toEqual(['toolplane-1', 'toolplane-2']);
    expect(services.loadbalancer?.image).toMatch(/^caddy:/);
    expect(services.everything?.image).toMatch(/^node:/);
    for (const [name, service] of Object.entries(services)) {
      expect([name, service.healthcheck?.test]).toEqual([name, expect.anything()]);
      if (service.image !== undefined) expect([name, service.image]).toEqual([name, expect.stringMatching(OFFICIAL_IMAGE)]);
    }
    // The replicas wait for a healthy database, the load balancer for healthy replicas.
    for (const [, replica] of replicas) expect(replica.depends_on?.postgres?.condition).toBe('service_healthy');
    expect(Object.keys(services.loadbalancer!.depends_on ?? {}).sort()).toEqual(['toolplane-1', 'toolplane-2']);
    expect(services.loadbalancer!.ports).toEqual(['8080:8080']);
  });

  it('gives both replicas the same database, keys and configuration file, and what the sandbox needs', () => {
    const [[, one], [, two]] = replicas as [[string, Service], [string, Service]];
    for (const setting of ['DATABASE_URL', 'TOOLPLANE_ADMIN_KEY', 'TOOLPLANE_ENCRYPTION_KEY', 'TOOLPLANE_CONFIG', 'TOOLPLANE_ALLOWED_ORIGINS']) {
      expect(one.environment?.[setting]).toBeTruthy();
      expect(two.environment?.[setting]).toBe(one.environment?.[setting]);
    }
    expect(one.environment!.DATABASE_URL).toContain('@postgres:5432/');
    expect(one.environment!.TOOLPLANE_ADMIN_KEY).toMatch(/^\$\{TOOLPLANE_ADMIN_KEY:\?/);
    expect(one.environment!.TOOLPLANE_ENCRYPTION_KEY).toMatch(/^\$\{TOOLPLANE_ENCRYPTION_KEY:\?/);
    for (const replica of [one, two]) {
      const config = mounted(replica, one.environment!.TOOLPLANE_CONFIG!);
      expect(config).toBe(resolve(ROOT, 'deploy/toolplane.yaml'));
      expect(existsSync(config!)).toBe(true);
      expect(replica.security_opt).toEqual(expect.arrayContaining(['seccomp=unconfined', 'apparmor=unconfined', 'systempaths=unconfined']));
    }
    // The load balancer's health checks name each replica: both must be allowed origins.
    expect(one.environment!.TOOLPLANE_ALLOWED_ORIGINS).toContain('http://toolplane-1:8080');
    expect(one.environment!.TOOLPLANE_ALLOWED_ORIGINS).toContain('http://toolplane-2:8080');
  });

  it("mounts a load-balancer configuration that spreads over both replicas, checks /health/ready and streams unbuffered", () => {
    const caddyfile = mounted(services.loadbalancer!, '/etc/caddy/Caddyfile');
    expect(caddyfile).toBeDefined();
    const text = readFileSync(caddyfile!, 'utf8');
    expect(text).toMatch(/reverse_proxy\s+toolplane-1:8080\s+toolplane-2:8080/);
    expect(text).toMatch(/health_uri\s+\/health\/ready/);
    expect(text).toMatch(/flush_interval\s+-1/);
  });
});

describe('deploy/toolplane.yaml', () => {
  it('declares sources as registration bodies, the example server among them', () => {
    const config = parse(readFileSync(resolve(ROOT, 'deploy/toolplane.yaml'), 'utf8')) as { sources: { name: string; transport: string; url?: string }[] };
    expect(Array.isArray(config.sources)).toBe(true);
    expect(config.sources.length).toBeGreaterThan(0);
    for (const source of config.sources) {
      expect(source.name).toMatch(/^[a-z0-9][a-z0-9-]{0,62}$/);
      expect(['stdio', 'streamable-http', 'sse']).toContain(source.transport);
    }
    expect(config.sources.find((source) => source.url?.startsWith('http://everything:3001/'))).toBeDefined();
  });

  it('passes the checks Toolplane applies to a configuration file before anything else', async () => {
    const document = await readConfigText(readFileSync(resolve(ROOT, 'deploy/toolplane.yaml'), 'utf8'));
    expect(document.problems).toEqual([]);
    expect(document.sources.flatMap((s) => s.shapeProblems)).toEqual([]);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8');
  it('runs as a non-root user, with bubblewrap installed for the plugin sandbox', () => {
    const lastUser = [...dockerfile.matchAll(/^USER\s+(\S+)/gm)].pop()?.[1];
    expect(lastUser).toBeDefined();
    expect(['root', '0']).not.toContain(lastUser);
    expect(dockerfile).toMatch(/apt-get install[^\n]*bubblewrap/);
  });
});
