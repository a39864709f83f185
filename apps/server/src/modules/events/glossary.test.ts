import { glossaryProblems, type Language } from '@sunfleet/contracts';
import { protocols } from '@sunfleet/protocols';
import { describe, expect, it } from 'vitest';
import { faultDigestMail, faultMail } from '../../mail/fault-mail.ts';
import { codeMail } from '../../mail/templates.ts';
import { actions, suggestedAction } from './catalogue.ts';
import { words } from './downloads.ts';
import { deviceParams } from './workdata/params.ts';

/** Every text the server writes in `lan` (events, their actions, protocol names, downloads, mails). */
function serverTexts(lan: Language): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(actions)) out[`action ${key}`] = text[lan];
  for (const level of ['fault', 'warning', 'info'] as const)
    out[`level action ${level}`] = suggestedAction('unknown.code', level, lan);
  for (const [id, definition] of Object.entries(protocols)) {
    for (const field of definition.fields) {
      out[`${id} ${field.key}`] = field.name[lan];
      for (const bit of Object.values(field.bits ?? {})) out[`${id} ${bit.code}`] = bit[lan];
      for (const [value, text] of Object.entries(field.enum ?? {})) out[`${id} ${field.key}=${value}`] = text[lan];
    }
  }
  for (const kind of ['inverter', 'battery', 'meter', 'weather'] as const)
    for (const p of deviceParams(kind, '', lan).all) out[`workdata ${kind} ${p.info.key}`] = p.info.name;
  const w = words[lan];
  for (const [key, text] of Object.entries({ ...w.level, ...w.kind, open: w.open, closed: w.closed }))
    out[`download ${key}`] = text;
  w.columns.forEach((c, i) => {
    out[`download column ${i}`] = c;
  });
  const event = { plantName: 'P', sn: 'SN1', alias: null, code: 'c', text: 'T', action: 'A', startedAt: 's', endedAt: 'e' };
  out['fault mail'] = faultMail('a@b.c', lan, event).text;
  out['digest mail'] = faultDigestMail('a@b.c', lan, [event], 3, 10).text;
  for (const purpose of ['signup', 'reset', 'notify'] as const)
    out[`code mail ${purpose}`] = codeMail('a@b.c', '123456', purpose, lan).text;
  return out;
}

describe('server texts keep to the glossary', () => {
  it.each(['en', 'es'] as const)('%s: events, suggested actions, protocol names, downloads and mails', (lan) => {
    expect(glossaryProblems(serverTexts(lan), lan)).toEqual([]);
  });

  it('the check sees the texts (a warning level is "Advertencia" in Spanish)', () => {
    expect(serverTexts('es')['download warning']).toBe('Advertencia');
  });
});
