import { keyScopesAllowed, roleForbidden, rolesAssignableBy, rolesGranting } from './roles';
import { SCOPES } from './scopes';

describe('roles', () => {
  it('lets owner and admin give every scope, a developer all but audit:read, a viewer none', () => {
    expect(keyScopesAllowed('owner')).toEqual(SCOPES);
    expect(keyScopesAllowed('admin')).toEqual(SCOPES);
    expect(keyScopesAllowed('developer')).toEqual(SCOPES.filter((s) => s !== 'audit:read'));
    expect(keyScopesAllowed('viewer')).toEqual([]);
  });

  it('names the roles that may give a set of scopes, most powerful first', () => {
    expect(rolesGranting(['defi:swap', 'usage:read'])).toEqual(['owner', 'admin', 'developer']);
    expect(rolesGranting(['defi:swap', 'audit:read'])).toEqual(['owner', 'admin']);
  });

  it('keeps owner and admin grants to the owner; ownership is transferred, not assigned', () => {
    expect(rolesAssignableBy('owner')).toEqual(['admin', 'developer', 'viewer']);
    expect(rolesAssignableBy('admin')).toEqual(['developer', 'viewer']);
    expect(rolesAssignableBy('developer')).toEqual([]);
    expect(rolesAssignableBy('viewer')).toEqual([]);
  });

  it('refuses with ROLE_FORBIDDEN (403, auth) naming the roles needed', () => {
    const error = roleForbidden('viewer', ['owner', 'admin']);
    expect(error).toMatchObject({ code: 'ROLE_FORBIDDEN', status: 403, phase: 'auth' });
    expect(error.message).toBe('The viewer role cannot do this; it needs owner or admin');
    expect(error.hint).toContain('owner or admin');
    expect(error.options.details).toEqual([{ role: 'viewer', required: ['owner', 'admin'] }]);
  });
});
