/** The public firmware change logs: enabled firmware images that carry a change log, newest first. */
import type { Db } from '../../db/index.ts';
import { iso } from '../../time/index.ts';

export async function firmwareChangeLogs(db: Db, q: { page?: number; size?: number; type?: 'gateway' | 'inverter' }) {
  const size = q.size ?? 10;
  let base = db.selectFrom('firmware').where('enabled', '=', 1).where('change_log', 'is not', null).where('change_log', '<>', '');
  if (q.type) base = base.where('type', '=', q.type);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    base
      .select(['id', 'type', 'product_name', 'version', 'change_log', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size)
      .offset(((q.page ?? 1) - 1) * size)
      .execute(),
  ]);
  return {
    total: Number(count.n),
    list: rows.map((r) => ({
      id: r.id,
      type: r.type,
      productName: r.product_name,
      version: r.version,
      changeLog: r.change_log ?? '',
      publishedAt: iso(r.created_at)!,
    })),
  };
}
