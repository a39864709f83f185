/**
 * The programmes whose terms the portal ships: the VTN names a programme (programName), the
 * portal serves its terms as a PDF under /assets/vpp/ (apps/web/public/assets/vpp/, made by
 * scripts/vpp-terms.mjs). A programme the VTN offers that is not listed here has no local terms
 * and cannot be enrolled in from the portal (the user must accept terms first).
 */
export interface ProgrammeTerms {
  /** The VTN's programName, compared without case. */
  name: string;
  title: string;
  file: string;
}

export const programmeTerms: readonly ProgrammeTerms[] = [
  { name: 'BESS-DR-2026', title: 'Battery Demand Response 2026', file: 'bess-dr-2026.pdf' },
  { name: 'PEAK-RELIEF', title: 'Peak Relief', file: 'peak-relief.pdf' },
  { name: 'SUMMER-SAVER', title: 'Summer Saver', file: 'summer-saver.pdf' },
  { name: 'GRID-FLEX-CAPACITY', title: 'Grid Flex Capacity', file: 'grid-flex-capacity.pdf' },
];

export const TERMS_PATH = '/assets/vpp/';

/** The terms URL of a programme by its name, or null when the portal has none. */
export function termsUrl(programName: string): string | null {
  const t = programmeTerms.find((p) => p.name.toLowerCase() === programName.trim().toLowerCase());
  return t ? `${TERMS_PATH}${t.file}` : null;
}
