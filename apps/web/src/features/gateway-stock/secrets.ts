/**
 * The secrets of gateways just made: shown once, so the page offers them as a .csv saved in the
 * browser (never sent anywhere). Pure: the file's text.
 */
import type { DataOf, gatewayStockApi } from '@sunfleet/contracts';
/** A gateway just made, with what it is provisioned with. */
export type MadeGateway = DataOf<typeof gatewayStockApi.createGateway>;

const field = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** CSV (RFC 4180, CRLF) with a header row: SN, claim key, device secret, firmware key. */
export function secretsCsv(made: readonly MadeGateway[], headers: readonly [string, string, string, string]): string {
  const lines = [headers.map(field).join(',')];
  for (const g of made) lines.push([g.sn, g.claimKey, g.secret, g.firmwareKey].map(field).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The rows of a batch typed one per line: SN, or "SN, protocol, alias" (blank lines skipped). */
export function parseBatchLines(text: string): Array<{ sn: string; protocol?: string; alias?: string }> {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [sn = '', protocol = '', alias = ''] = line.split(/[,;\t]/).map((c) => c.trim());
      return { sn, ...(protocol ? { protocol } : {}), ...(alias ? { alias } : {}) };
    });
}
