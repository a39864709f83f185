/**
 * The value schemas every API shares, declared once: ids, calendar days, instants, serial
 * numbers, nullable values and literal unions.
 */
import Type, { type Static, type TSchema } from 'typebox';

export const Nothing = Type.Null();
export const Id = Type.Integer({ minimum: 1 });
export const IdParams = Type.Object({ id: Id });
export const LanQuery = Type.Object({ lan: Type.Optional(Type.String({ maxLength: 8 })) });

/** A point in time, ISO 8601 with its offset. */
export const Instant = Type.String({ format: 'date-time' });
/** A calendar day; for plant data, the plant's local day (an unbound device's is UTC). */
export const Day = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' });

/** A device or gateway serial number: 1 to 32 of A–Z a–z 0–9 _ -. */
export const SN_PATTERN = '^[A-Za-z0-9_-]{1,32}$';
export const Sn = Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' });
export const SnParams = Type.Object({ sn: Sn });

/**
 * `T | null` as one schema with `type: [T, 'null']`. A union would not do: the server coerces
 * types, and its first branch would turn a null into 0 or "" before the null branch is tried.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const plain = JSON.parse(JSON.stringify(schema)) as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...plain, type: [plain.type, 'null'] } as unknown as TSchema);
}

/** A union of string literals, typed as that union. */
export function Literals<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) {
  return Type.Unsafe<T[number]>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      options,
    ),
  );
}
