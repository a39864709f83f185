import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';
import { recordAdminChange } from './admin.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('admin audit', () => {
  it('records who changed what, before and after, with the change or not at all', async () => {
    const actor = await server.user({ kind: 'sysadmin' });
    await recordAdminChange(server.db, {
      actorUserId: actor.id,
      companyId: 7,
      entity: 'company',
      entityId: 7,
      action: 'edit',
      before: { name: 'Old' },
      after: { name: 'New' },
    });
    await server.db
      .transaction()
      .execute(async (trx) => {
        await recordAdminChange(trx, { actorUserId: actor.id, companyId: 7, entity: 'role', entityId: 1, action: 'delete' });
        throw new Error('the change failed');
      })
      .catch(() => undefined);
    const rows = await server.db.selectFrom('admin_audit').selectAll().where('company_id', '=', 7).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ entity: 'company', entity_id: '7', action: 'edit', actor_user_id: actor.id });
    expect(JSON.parse(rows[0]!.before_values!)).toEqual({ name: 'Old' });
    expect(JSON.parse(rows[0]!.after_values!)).toEqual({ name: 'New' });
  });
});
