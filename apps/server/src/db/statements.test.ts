import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { keepStatements } from './index.ts';

describe('keepStatements (the SQLite connection as Kysely sees it)', () => {
  const open = () => {
    const sqlite = new SQLite(':memory:');
    sqlite.exec('create table t (n integer); insert into t values (1), (2), (3)');
    return sqlite;
  };

  it('prepares a text once and hands the same statement back', () => {
    const db = keepStatements(open());
    const a = db.prepare('select n from t where n > ?');
    expect(db.prepare('select n from t where n > ?')).toBe(a);
    expect(db.prepare('select n from t where n < ?')).not.toBe(a);
  });

  it('drops the least recently used text beyond its size', () => {
    const db = keepStatements(open(), 2);
    const a = db.prepare('select 1');
    const b = db.prepare('select 2');
    expect(db.prepare('select 1')).toBe(a); // now the newest
    db.prepare('select 3'); // drops "select 2"
    expect(db.prepare('select 1')).toBe(a);
    expect(db.prepare('select 2')).not.toBe(b);
  });

  it('does not hand out a statement still being iterated', () => {
    const db = keepStatements(open());
    const text = 'select n from t order by n';
    const iterating = db.prepare(text) as unknown as SQLite.Statement;
    const rows = iterating.iterate();
    expect(rows.next().value).toEqual({ n: 1 });
    const other = db.prepare(text) as unknown as SQLite.Statement;
    expect(other).not.toBe(iterating);
    expect(other.all()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect([...rows]).toEqual([{ n: 2 }, { n: 3 }]);
  });
});
