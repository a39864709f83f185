import { describe, expect, it } from 'vitest';
import { createI18n } from '../../app/i18n.ts';
import en from '../../locales/en/index.ts';
import es from '../../locales/es/index.ts';
import { knownReason, reasonText } from './reasons.ts';

const tr = (i18n: ReturnType<typeof createI18n>) => (key: string, values?: Record<string, string>) =>
  i18n.t(`energyHub:${key}`, values);

describe('event reasons', () => {
  const english = tr(createI18n('en', en));
  const spanish = tr(createI18n('es', es));

  it('translates the programme reason, keeping the programme it names', () => {
    const reason = 'programme prog-77 is not one this portal is enrolled in';
    expect(reasonText(reason, english)).toBe('Programme prog-77 is not one this portal is enrolled in');
    expect(reasonText(reason, spanish)).toBe('El programa prog-77 no es uno en los que este portal esté inscrito');
  });

  it('translates the targets reason, keeping the targets it names', () => {
    const reason = 'targets group-7, ven-other name neither this VEN nor its resources';
    expect(reasonText(reason, english)).toBe('Its targets (group-7, ven-other) are neither this portal nor its devices');
    expect(reasonText(reason, spanish)).toBe('Sus destinatarios (group-7, ven-other) no son este portal ni sus dispositivos');
  });

  it('translates the ended reason', () => {
    expect(reasonText('the VTN no longer has this event', english)).toBe('The utility no longer has this event');
    expect(reasonText('the VTN no longer has this event', spanish)).toBe('La distribuidora ya no tiene este evento');
  });

  it('shows any other text as the server wrote it', () => {
    for (const other of ['opted out by the operator', 'programme x is paused', 'the VTN no longer has this event, twice', ''])
      expect(reasonText(other, spanish)).toBe(other);
    expect(knownReason('the VTN no longer has this event')).toEqual({ key: 'reasons.gone', values: {} });
  });
});
