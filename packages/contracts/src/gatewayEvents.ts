/**
 * Gateway-level event codes (`up/event`, docs/protocol.md) that the server knows: their texts in
 * both interface languages. A gateway may send other codes; their own `text` is shown as is.
 */
export interface GatewayEventText {
  en: string;
  es: string;
}

export const gatewayEventTexts: Readonly<Record<string, GatewayEventText>> = {
  'rs485.timeout': { en: 'Device not answering on the RS-485 bus', es: 'El dispositivo no responde en el bus RS-485' },
  'bus.timeout': { en: 'No answer from the device on the bus', es: 'Sin respuesta del dispositivo en el bus' },
  'power.loss': { en: 'Gateway power supply lost', es: 'Pérdida de alimentación de la pasarela' },
  'buffer.full': {
    en: 'Gateway buffer full: the oldest readings were dropped',
    es: 'Búfer de la pasarela lleno: se descartaron las lecturas más antiguas',
  },
  'clock.unsynced': { en: 'Gateway clock not synchronised', es: 'Reloj de la pasarela sin sincronizar' },
};

/** Texts of a gateway event: the catalogue's when the code is known, else the gateway's own. */
export function gatewayEventText(code: string, text: string | undefined): GatewayEventText {
  const known = gatewayEventTexts[code];
  if (known) return known;
  const own = text ?? code;
  return { en: own, es: own };
}
