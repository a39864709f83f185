/**
 * The programmes whose terms the portal ships (the list is the contracts' `PROGRAMME_TERMS`, as
 * the web serves the files): a programme the VTN offers that is not listed has no local terms
 * and cannot be enrolled in from the portal, as the user must accept terms first.
 */
import { demandResponseApi } from '@sunfleet/contracts';

const { PROGRAMME_TERMS, TERMS_PATH } = demandResponseApi;

/** The terms URL of a programme by its name, or null when the portal has none. */
export function termsUrl(programName: string): string | null {
  const t = PROGRAMME_TERMS.find((p) => p.name.toLowerCase() === programName.trim().toLowerCase());
  return t ? `${TERMS_PATH}${t.file}` : null;
}
