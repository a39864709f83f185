/** The WAL checkpointer: checkpoints from its worker, and outlives a worker that fails. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/mqtt.ts';
import { startWalCheckpointer } from './wal-checkpointer.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-wal-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('WAL checkpointer', () => {
  it('reports a worker that cannot open the file, starts it again, and checkpoints once the file is there', async () => {
    const sub = path.join(dir, 'later');
    const file = path.join(sub, 'store.db');
    const errors: string[] = [];
    const checkpointer = startWalCheckpointer(file, { intervalMs: 20, restartMs: 50, onError: (m) => errors.push(m) });
    try {
      await waitFor(() => errors.length >= 2, 5000, 'two failed starts reported');
      expect(errors[0]).toMatch(/WAL checkpointer failed/);

      fs.mkdirSync(sub);
      const db = new SQLite(file);
      db.pragma('journal_mode = WAL');
      db.pragma('wal_autocheckpoint = 0');
      db.exec('create table t (x text)');
      const insert = db.prepare('insert into t values (?)');
      for (let i = 0; i < 200; i++) insert.run('x'.repeat(500));
      const before = fs.statSync(file).size;
      // The rows reach the database file only through a checkpoint (this connection makes none).
      await waitFor(() => fs.statSync(file).size > before + 50_000, 5000, 'a checkpoint by the restarted worker');
      db.close();
    } finally {
      await checkpointer.stop();
    }
  });
});
