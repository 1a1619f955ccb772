import request from 'supertest';
import { DataSource } from 'typeorm';
import type { Role } from '../../src/auth/roles';
import { UsersService } from '../../src/auth/users/users.service';
import { createTestApp, TestAccount, TestApp } from '../helpers/app';
import { login } from '../helpers/auth';

/**
 * Security review: a role change decided on a stale read. Each case lets a competing request
 * commit right before the change's transaction starts (the database and requests are real; only
 * the moment is chosen), then checks the account's invariants: exactly one owner, and no admin
 * demoted by an admin.
 */
describe('MembersService: role changes racing other changes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const as = (token: string) => ({
    patch: (userId: string, role: Role) =>
      request(t.server)
        .patch(`/api/v1/account/members/${userId}`)
        .set('Authorization', `Bearer ${token}`)
        .send({ role }),
    remove: (userId: string) =>
      request(t.server)
        .delete(`/api/v1/account/members/${userId}`)
        .set('Authorization', `Bearer ${token}`),
  });

  /** An account with an owner, an admin and a developer, each logged in. */
  async function team() {
    const owner = await t.createAccount();
    const users = t.app.get(UsersService);
    const member = async (role: Role) => {
      const user = await users.build(
        owner.accountId,
        `${role}-${owner.email}`,
        owner.password,
        role,
      );
      await users.insert(user);
      const account: TestAccount = { ...owner, userId: user.id, email: user.email };
      return { id: user.id, token: await login(t, account) };
    };
    return {
      accountId: owner.accountId,
      owner: { id: owner.userId, token: await login(t, owner) },
      admin: await member('admin'),
      developer: await member('developer'),
    };
  }

  const roles = async (accountId: string) =>
    new Map(
      (await t.app.get(UsersService).listMembers(accountId)).map((user) => [user.id, user.role]),
    );
  const owners = async (accountId: string) =>
    [...(await roles(accountId)).values()].filter((role) => role === 'owner').length;

  /** Runs `competing` once, just before the next members change opens its transaction. */
  function beforeNextMemberChange(competing: () => Promise<unknown>): () => void {
    const dataSource = t.app.get(DataSource);
    const transaction = dataSource.transaction.bind(dataSource) as (
      ...args: unknown[]
    ) => Promise<unknown>;
    let armed = true;
    const spy = jest.spyOn(dataSource, 'transaction').mockImplementation((async (
      ...args: unknown[]
    ) => {
      if (armed && /MembersService\./.test(new Error().stack ?? '')) {
        armed = false;
        await competing();
      }
      return transaction(...args);
    }) as typeof dataSource.transaction);
    return () => spy.mockRestore();
  }

  it('a transfer to a member removed meanwhile is refused, and the owner stays owner', async () => {
    const { accountId, owner, admin, developer } = await team();
    const restore = beforeNextMemberChange(() => as(admin.token).remove(developer.id).expect(204));
    try {
      const transfer = await as(owner.token).patch(developer.id, 'owner');
      expect(transfer.status).toBe(404);
      expect(transfer.body.code).toBe('NOT_FOUND');
    } finally {
      restore();
    }
    expect(await owners(accountId)).toBe(1);
    expect((await roles(accountId)).get(owner.id)).toBe('owner');
  });

  it('an admin cannot demote a member the owner made admin meanwhile', async () => {
    const { accountId, owner, admin, developer } = await team();
    const restore = beforeNextMemberChange(() =>
      as(owner.token).patch(developer.id, 'admin').expect(200),
    );
    try {
      const demote = await as(admin.token).patch(developer.id, 'viewer');
      expect(demote.status).toBe(403);
      expect(demote.body.code).toBe('ROLE_FORBIDDEN');
    } finally {
      restore();
    }
    expect((await roles(accountId)).get(developer.id)).toBe('admin');
  });

  it('an owner who transferred meanwhile cannot transfer again', async () => {
    const { accountId, owner, admin, developer } = await team();
    const restore = beforeNextMemberChange(() =>
      as(owner.token).patch(admin.id, 'owner').expect(200),
    );
    try {
      const second = await as(owner.token).patch(developer.id, 'owner');
      expect(second.status).toBe(403);
      expect(second.body.code).toBe('ROLE_FORBIDDEN');
    } finally {
      restore();
    }
    const now = await roles(accountId);
    expect(await owners(accountId)).toBe(1);
    expect(now.get(admin.id)).toBe('owner');
    expect(now.get(developer.id)).toBe('developer');
  });

  it('concurrent transfers and removals always leave exactly one owner', async () => {
    for (let round = 0; round < 5; round++) {
      const { accountId, owner, admin, developer } = await team();
      const answers = await Promise.all([
        as(owner.token).patch(developer.id, 'owner'),
        as(admin.token).remove(developer.id),
      ]);
      // Either order is fine: a removed member cannot be made owner, the new owner cannot be removed.
      for (const res of answers) expect([200, 204, 400, 404]).toContain(res.status);
      expect(await owners(accountId)).toBe(1);
    }
  });
});
