/** Reserved (issue 5); filled in by its owner before it ships. */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was then
export async function up(_db: Kysely<any>): Promise<void> {}
