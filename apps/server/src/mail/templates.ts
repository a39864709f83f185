import type { Language } from '@sunfleet/contracts';
import type { Mail } from './mailer.ts';

const purposeText = {
  signup: { en: 'to finish creating your Sunfleet account', es: 'para terminar de crear su cuenta de Sunfleet' },
  reset: { en: 'to reset your Sunfleet password', es: 'para restablecer su contraseña de Sunfleet' },
  notify: {
    en: 'to receive Sunfleet alarm notifications at this address',
    es: 'para recibir las notificaciones de alarma de Sunfleet en esta dirección',
  },
} as const;

export function codeMail(to: string, code: string, purpose: keyof typeof purposeText, lan: Language): Mail {
  const why = purposeText[purpose][lan];
  if (lan === 'es') {
    return {
      to,
      subject: `Su código de verificación de Sunfleet: ${code}`,
      text: `Su código de verificación es ${code}. Úselo ${why}. Caduca en 10 minutos.\n\nSi no lo ha solicitado, ignore este mensaje.`,
    };
  }
  return {
    to,
    subject: `Your Sunfleet verification code: ${code}`,
    text: `Your verification code is ${code}. Use it ${why}. It expires in 10 minutes.\n\nIf you did not ask for it, ignore this message.`,
  };
}
