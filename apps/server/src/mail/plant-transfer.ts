/**
 * The mails of a plant transfer request, each in its recipient's language: the offer to the
 * recipient (with a link to the portal's transfers page when the portal's address is known),
 * the owner's confirmation that it was sent, and the news of acceptance, refusal or withdrawal.
 */
import type { Language } from '@sunfleet/contracts';
import type { Mail } from './mailer.ts';

export type TransferMailKind = 'offered' | 'requested' | 'accepted' | 'declined' | 'cancelled';

export interface TransferMailFacts {
  plantName: string;
  /** The other party's account. */
  other: string;
  /** The request's id (the link opens it). */
  id: number;
  /** Days until the offer lapses. */
  days: number;
  /** The portal's address, or null. */
  portalUrl: string | null;
}

/** The portal page that lists transfers, reached from the plant list. */
export const TRANSFERS_PATH = '/plants/transfers';

const texts = {
  en: {
    where: 'in the portal under Plants → Transfers',
    open: (url: string) => `Open the request: ${url}`,
    offered: (f: TransferMailFacts) => ({
      subject: `Sunfleet: ${f.other} offers you the plant ${f.plantName}`,
      body: `${f.other} wants to transfer the plant "${f.plantName}" to you, with its devices and history. Nothing changes until you accept.\n\nAccept or decline it within ${f.days} days`,
    }),
    requested: (f: TransferMailFacts) => ({
      subject: `Sunfleet: transfer of ${f.plantName} requested`,
      body: `You asked to transfer the plant "${f.plantName}" to ${f.other}. The plant stays yours until ${f.other} accepts; the request lapses after ${f.days} days. You can cancel it`,
    }),
    accepted: (f: TransferMailFacts) => ({
      subject: `Sunfleet: you transferred the plant ${f.plantName}`,
      body: `${f.other} accepted the plant "${f.plantName}", with its devices and history. You no longer have access to it.\n\nIf this was not you, contact support. Your transfers are listed`,
    }),
    declined: (f: TransferMailFacts) => ({
      subject: `Sunfleet: ${f.other} declined the plant ${f.plantName}`,
      body: `${f.other} declined the transfer of the plant "${f.plantName}". The plant stays yours. Your transfers are listed`,
    }),
    cancelled: (f: TransferMailFacts) => ({
      subject: `Sunfleet: transfer of ${f.plantName} withdrawn`,
      body: `The transfer of the plant "${f.plantName}" between you and ${f.other} was cancelled; nothing changed. Your transfers are listed`,
    }),
  },
  es: {
    where: 'en el portal, en Plantas → Transferencias',
    open: (url: string) => `Abra la solicitud: ${url}`,
    offered: (f: TransferMailFacts) => ({
      subject: `Sunfleet: ${f.other} le ofrece la planta ${f.plantName}`,
      body: `${f.other} quiere transferirle la planta «${f.plantName}», con sus dispositivos y su historial. Nada cambia hasta que usted la acepte.\n\nAcéptela o rechácela en un plazo de ${f.days} días`,
    }),
    requested: (f: TransferMailFacts) => ({
      subject: `Sunfleet: transferencia de ${f.plantName} solicitada`,
      body: `Ha solicitado transferir la planta «${f.plantName}» a ${f.other}. La planta sigue siendo suya hasta que ${f.other} la acepte; la solicitud caduca a los ${f.days} días. Puede cancelarla`,
    }),
    accepted: (f: TransferMailFacts) => ({
      subject: `Sunfleet: ha transferido la planta ${f.plantName}`,
      body: `${f.other} ha aceptado la planta «${f.plantName}», con sus dispositivos y su historial. Ya no tiene acceso a ella.\n\nSi no ha sido usted, póngase en contacto con el soporte. Sus transferencias figuran`,
    }),
    declined: (f: TransferMailFacts) => ({
      subject: `Sunfleet: ${f.other} ha rechazado la planta ${f.plantName}`,
      body: `${f.other} ha rechazado la transferencia de la planta «${f.plantName}». La planta sigue siendo suya. Sus transferencias figuran`,
    }),
    cancelled: (f: TransferMailFacts) => ({
      subject: `Sunfleet: transferencia de ${f.plantName} retirada`,
      body: `Se ha cancelado la transferencia de la planta «${f.plantName}» entre usted y ${f.other}; nada ha cambiado. Sus transferencias figuran`,
    }),
  },
} as const;

export function plantTransferMail(to: string, lan: Language, kind: TransferMailKind, f: TransferMailFacts): Mail {
  const w = texts[lan];
  const { subject, body } = w[kind](f);
  const link = f.portalUrl ? `\n\n${w.open(`${f.portalUrl}${TRANSFERS_PATH}?id=${f.id}`)}` : '';
  return { to, subject, text: `${body} ${w.where}.${link}` };
}
