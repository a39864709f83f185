/**
 * Whether an event is for this VEN. A VTN may notify every subscriber and may ignore a
 * programme filter, so the VEN decides for itself, by the OpenADR 3.1 targeting rules:
 * - the event's programme must be one a user of the portal is enrolled in;
 * - an event without targets is for every VEN of its programme;
 * - an event with targets is for this VEN when one of them is granted to it: a target of its ven
 *   object (granted by the utility), or its VEN name; it is for some of its resources only when
 *   its targets name those resources (a target of the resource object, or its resource name) and
 *   none is granted to the VEN as a whole.
 * Targets are strings in 3.1; the 3.0 form (`{ type, values }`) is read as its values.
 */

export interface Grants {
  venName: string;
  venId: string | null;
  /** Targets of the ven object. */
  venTargets: string[];
  resources: { id: string; name: string; targets: string[] }[];
}

export type Applicability =
  | { applies: true /** Resource names (device SNs) it is limited to; null: all of the VEN's. */; only: string[] | null }
  | { applies: false; reason: string };

/** The target strings of an object, whatever their form; [] when it has none. */
export function targetsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((t) => {
    if (typeof t === 'string' || typeof t === 'number') return [String(t)];
    if (t && typeof t === 'object' && Array.isArray((t as { values?: unknown[] }).values))
      return (t as { values: unknown[] }).values.map(String);
    return [];
  });
}

export function applicability(
  event: { programID: string; targets?: unknown },
  enrolledPrograms: ReadonlySet<string>,
  grants: Grants,
): Applicability {
  if (!enrolledPrograms.has(event.programID))
    return { applies: false, reason: `programme ${event.programID} is not one this portal is enrolled in` };
  const targets = targetsOf(event.targets);
  if (targets.length === 0) return { applies: true, only: null };
  const venWide = new Set([...grants.venTargets, grants.venName]);
  if (targets.some((t) => venWide.has(t))) return { applies: true, only: null };
  const mine = grants.resources.filter((r) => targets.some((t) => t === r.name || r.targets.includes(t)));
  if (mine.length > 0) return { applies: true, only: mine.map((r) => r.name) };
  return { applies: false, reason: `targets ${targets.slice(0, 5).join(', ')} name neither this VEN nor its resources` };
}
