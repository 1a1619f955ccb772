import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, YAML11_SCHEMA } from 'js-yaml';
import { checkHaproxyConfig, HAPROXY_CFG } from '../helpers/haproxy';

const ROOT = join(__dirname, '..', '..');

interface Service {
  image?: string;
  build?: string;
  command?: string;
  environment?: Record<string, string>;
  env_file?: string;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  stop_grace_period?: string;
}

/**
 * docker-compose.yml and deploy/haproxy.cfg as the operators' docs show them (docs/operators/running-and-scaling.md
 * "Replicas"): Docker is not available here, so the compose file is read as YAML (merge keys
 * resolved as Compose resolves them) and the balancer's file is checked by HAProxy itself.
 */
describe('replicas deployment files', () => {
  // YAML 1.1, as Compose reads it: the `<<` merge keys of the replicas' shared block.
  const compose = load(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), {
    schema: YAML11_SCHEMA,
  }) as {
    services: Record<string, Service>;
  };
  const replicas = ['api1', 'api2'];

  it('runs two replicas with the same shared settings behind a balancer service', () => {
    const { services } = compose;
    // Prometheus and Grafana beside them (issue 58): scripts/deploy/compose-file.spec.ts checks those.
    expect(Object.keys(services).sort()).toEqual(
      ['api1', 'api2', 'balancer', 'postgres', 'redis', 'prometheus', 'grafana'].sort(),
    );
    const shared = (name: string) => {
      const { environment = {}, ...rest } = services[name];
      const { DATA_DIR: _own, ...env } = environment;
      return { ...rest, volumes: undefined, environment: env };
    };
    expect(shared('api2')).toEqual(shared('api1'));
    for (const name of replicas) {
      const service = services[name];
      // ZK_*, CHAIN_*, SIWE_DOMAIN come from one file; the secrets from files (./secrets/).
      expect(service.env_file).toBe('.env.production');
      expect(service.environment).toMatchObject({
        APP_MODE: 'production',
        DATABASE_URL_FILE: '/run/secrets/database_url',
        REDIS_URL: 'redis://redis:6379',
        TRUST_PROXY: '1',
        DATABASE_MIGRATIONS: 'auto',
      });
      expect(Number(service.environment!.SHUTDOWN_READINESS_DELAY_MS)).toBeGreaterThanOrEqual(
        9_000,
      );
      expect(service.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' } });
      // The image the Dockerfile builds: no source tree mounted, the network file read-only.
      expect(service.build).toBe('.');
      expect(service.volumes).not.toContainEqual(expect.stringMatching(/^\.\/?:/));
      expect(service.volumes).toContainEqual(
        expect.stringMatching(/:\/run\/cgk\/network\.json:ro$/),
      );
    }
    // Each replica its own DATA_DIR volume.
    expect(services.api1.volumes).not.toEqual(services.api2.volumes);
    // The balancer runs the file the docs show, naming each replica.
    expect(services.balancer.volumes).toContain(
      './deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro',
    );
    const cfg = readFileSync(HAPROXY_CFG, 'utf8');
    for (const name of replicas)
      expect(cfg).toMatch(new RegExp(`server ${name} ${name}:3000 check`));
  });

  it('takes every setting the example env file requires from .env.production, never overridden per replica', () => {
    const required = readFileSync(join(ROOT, '.env.production.example'), 'utf8')
      .split('\n')
      .flatMap((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1] ?? []);
    expect(required).toEqual(
      expect.arrayContaining([
        'JWT_SECRET',
        'ZK_ISSUER_PUBLIC_KEY',
        'ATTESTER_PRIVATE_KEY',
        'CHAIN_RPC_URL',
      ]),
    );
    // Compose does not override a shared secret per replica.
    for (const name of replicas)
      for (const key of required.filter((k) => k !== 'APP_MODE'))
        expect(compose.services[name].environment).not.toHaveProperty(key);
  });

  it('deploy/haproxy.cfg is valid for HAProxy (haproxy -c), its replica names resolved locally', () => {
    // Compose's service names resolve only inside its network: check with loopback ones.
    const out = checkHaproxyConfig((cfg) => cfg.replace(/ api(\d):3000 /g, ' 127.0.0.1:300$1 '));
    expect(out).toContain('Configuration file is valid');
  });
});
