/**
 * Who may be sent verification codes how often, across every call that sends one (sign-up,
 * reset, notification address): at most 5 codes to one address in 10 minutes, whatever client
 * asks, and at most 30 codes from one client address in an hour, whatever addresses they go to.
 * An address is counted folded: "A.Lice+x@example.com" and "alice@example.com" are one mailbox
 * at the providers that ignore dots and plus-suffixes; the code still goes to the address as typed.
 */
import type { FastifyRequest } from 'fastify';
import type { Limit } from '../../http/route.ts';

/** The address as counted: lower case, the local part without a plus-suffix and without dots. */
export function countedAddress(address: string): string {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  const local = lower.slice(0, at).split('+')[0]!.replaceAll('.', '');
  return `${local}${lower.slice(at)}`;
}

export const codesPerAddress = { max: 5, minutes: 10 };
export const codesPerClient = { max: 30, minutes: 60 };

/** The two limits of a call that mails a code to `addressOf(req)`. */
export function codeLimits(addressOf: (req: FastifyRequest) => string | undefined): Limit[] {
  return [
    {
      ...codesPerAddress,
      name: 'codes by address',
      key: (req) => {
        const address = addressOf(req);
        return address ? countedAddress(address) : null;
      },
    },
    { ...codesPerClient, name: 'codes by client', key: (req) => req.ip },
  ];
}
