import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AccountsService } from '../../src/accounts/accounts.service';
import { CliModule } from '../../src/cli/cli.module';
import { CliUsageError, runCommand } from '../../src/cli/cli-commands';
import { createTestDatabase, TestDatabase, withEnv } from '../helpers/test-env';

/**
 * Names people type and others read (issue 30: 4b): the operator CLI's account names follow the
 * same rule as API key names (src/common/validation/is-printable-name.ts); the API side is in
 * test/auth/api-keys.e2e-spec.ts.
 */
describe('Printable account names in the operator CLI', () => {
  let db: TestDatabase;
  let cli: INestApplicationContext;
  let counter = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    cli = await withEnv({ ...db.env, LOG_LEVEL: 'silent' }, () =>
      NestFactory.createApplicationContext(CliModule, { logger: false }),
    );
  });
  afterAll(async () => {
    await cli?.close();
    await db?.drop();
  });

  const createAccount = (name: string) => {
    counter += 1;
    return runCommand(cli, 'create-account', {
      name,
      email: `names${counter}@example.test`,
      password: 'a long enough password',
    });
  };

  it.each([
    ['a right-to-left override', 'Acme\u202EecnaniF', 'U+202E'],
    ['a first-strong isolate', 'Acme\u2068', 'U+2068'],
    ['a zero-width space', 'Ac\u200Bme', 'U+200B'],
    ['a byte order mark', '\uFEFFAcme', 'U+FEFF'],
    ['a NUL', 'Acme\u0000', 'U+0000'],
    ['a CRLF', 'Acme\r\nplan=enterprise', 'U+000D'],
    ['an escape sequence', '\u001B[2JAcme', 'U+001B'],
  ])(
    'refuses --name with %s, naming the character, and creates nothing',
    async (_label, name, code) => {
      const accounts = cli.get(AccountsService);
      const before = await accounts.count();
      const refusal = createAccount(name);
      await expect(refusal).rejects.toThrow(CliUsageError);
      await expect(refusal).rejects.toThrow(
        new RegExp(`^--name contains ${code.replace('+', '\\+')}; names may not hold control`),
      );
      expect(await accounts.count()).toBe(before);
    },
  );

  it('refuses a blank or over-long name, and takes any script and emoji', async () => {
    await expect(createAccount('   ')).rejects.toThrow('--name must contain a visible character');
    await expect(createAccount('x'.repeat(201))).rejects.toThrow(
      '--name must have at most 200 characters',
    );
    const created = await createAccount('Zoë & Søren — 東京 🚀');
    expect((await cli.get(AccountsService).findById(created.accountId as string))?.name).toBe(
      'Zoë & Søren — 東京 🚀',
    );
  });
});
