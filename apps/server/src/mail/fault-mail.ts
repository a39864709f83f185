/**
 * Fault notification mails (`user/notify` enables them): one mail per new fault on a
 * plant the user can see, and a digest of the faults held back by the hourly limit. Texts come
 * already in the recipient's language; times already in the plant's zone.
 */
import type { Language } from '@sunfleet/contracts';
import type { Mail } from './mailer.ts';

export interface FaultMailEvent {
  plantName: string;
  sn: string;
  alias: string | null;
  code: string;
  text: string;
  action: string;
  /** "YYYY-MM-DD HH:mm:ss (zone)" */
  startedAt: string;
  endedAt: string | null;
}

/** The digest lists at most this many faults by name. */
export const DIGEST_LISTED = 20;

const words = {
  en: {
    subject: (e: FaultMailEvent) => `Sunfleet: fault at ${e.plantName}: ${e.text}`,
    digestSubject: (n: number) => `Sunfleet: ${n} more ${n === 1 ? 'fault' : 'faults'} on your plants`,
    intro: (e: FaultMailEvent) => `A fault started at your plant "${e.plantName}".`,
    digestIntro: (n: number, perHour: number) =>
      `To keep your inbox calm we send at most ${perHour} alarm mails an hour. Since the last one, ${n} more ${n === 1 ? 'fault has' : 'faults have'} started on your plants:`,
    device: 'Device',
    fault: 'Fault',
    started: 'Started',
    ended: 'Ended',
    action: 'Suggested action',
    more: (n: number) => `… and ${n} more.`,
    open: 'Open the portal to see and acknowledge the events',
    why: 'You receive this because alarm notifications are enabled in your Sunfleet account settings; you can turn them off there.',
  },
  es: {
    subject: (e: FaultMailEvent) => `Sunfleet: fallo en ${e.plantName}: ${e.text}`,
    digestSubject: (n: number) => `Sunfleet: ${n} ${n === 1 ? 'fallo más' : 'fallos más'} en sus plantas`,
    intro: (e: FaultMailEvent) => `Ha comenzado un fallo en su planta «${e.plantName}».`,
    digestIntro: (n: number, perHour: number) =>
      `Para no saturar su correo enviamos como máximo ${perHour} correos de alarma por hora. Desde el último, ${n === 1 ? 'ha comenzado 1 fallo más' : `han comenzado ${n} fallos más`} en sus plantas:`,
    device: 'Equipo',
    fault: 'Fallo',
    started: 'Inicio',
    ended: 'Fin',
    action: 'Acción sugerida',
    more: (n: number) => `… y ${n} más.`,
    open: 'Abra el portal para ver y reconocer los eventos',
    why: 'Recibe este mensaje porque las notificaciones de alarma están activadas en la configuración de su cuenta de Sunfleet; puede desactivarlas allí.',
  },
} as const;

const deviceName = (e: FaultMailEvent) => (e.alias ? `${e.alias} (${e.sn})` : e.sn);
const footer = (lan: Language, portalUrl: string | null) => {
  const w = words[lan];
  return `${portalUrl ? `${w.open}: ${portalUrl}\n\n` : ''}${w.why}`;
};

export function faultMail(to: string, lan: Language, e: FaultMailEvent, portalUrl: string | null = null): Mail {
  const w = words[lan];
  const lines = [
    w.intro(e),
    '',
    `${w.device}: ${deviceName(e)}`,
    `${w.fault}: ${e.text} [${e.code}]`,
    `${w.started}: ${e.startedAt}`,
    ...(e.endedAt ? [`${w.ended}: ${e.endedAt}`] : []),
    '',
    `${w.action}: ${e.action}`,
    '',
    footer(lan, portalUrl),
  ];
  return { to, subject: w.subject(e), text: lines.join('\n') };
}

/** `events` newest last; `total` may exceed what is listed. */
export function faultDigestMail(
  to: string,
  lan: Language,
  events: FaultMailEvent[],
  total: number,
  perHour: number,
  portalUrl: string | null = null,
): Mail {
  const w = words[lan];
  const listed = events.slice(0, DIGEST_LISTED);
  const lines = [
    w.digestIntro(total, perHour),
    '',
    ...listed.map((e) => `- ${e.startedAt} · ${e.plantName} · ${deviceName(e)}: ${e.text} [${e.code}]`),
    ...(total > listed.length ? [w.more(total - listed.length)] : []),
    '',
    footer(lan, portalUrl),
  ];
  return { to, subject: w.digestSubject(total), text: lines.join('\n') };
}
