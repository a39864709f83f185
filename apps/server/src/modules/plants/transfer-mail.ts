/** The two mails of a plant transfer, in each recipient's language. */
import type { Language } from '@sunfleet/contracts';
import type { Mail } from '../../mail/mailer.ts';

export function transferMail(to: string, lan: Language, side: 'from' | 'to', plantName: string, otherAccount: string): Mail {
  if (lan === 'es') {
    return side === 'from'
      ? {
          to,
          subject: `Sunfleet: ha transferido la planta ${plantName}`,
          text: `La planta «${plantName}» se ha transferido a ${otherAccount}, con sus dispositivos y su historial. Ya no tiene acceso a ella.\n\nSi no ha sido usted, póngase en contacto con el soporte.`,
        }
      : {
          to,
          subject: `Sunfleet: ha recibido la planta ${plantName}`,
          text: `${otherAccount} le ha transferido la planta «${plantName}», con sus dispositivos y su historial. La encontrará en su lista de plantas.`,
        };
  }
  return side === 'from'
    ? {
        to,
        subject: `Sunfleet: you transferred the plant ${plantName}`,
        text: `The plant "${plantName}" has been transferred to ${otherAccount}, with its devices and history. You no longer have access to it.\n\nIf this was not you, contact support.`,
      }
    : {
        to,
        subject: `Sunfleet: you received the plant ${plantName}`,
        text: `${otherAccount} has transferred the plant "${plantName}" to you, with its devices and history. You will find it in your plant list.`,
      };
}
