import { glossaryProblems } from '@sunfleet/contracts';
import { describe, expect, it } from 'vitest';
import en from '../locales/en/index.ts';
import es from '../locales/es/index.ts';
import { catalogueLanguage, createI18n, loadI18n } from './i18n.ts';

const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));

/** Every text of a catalogue by its full key ("events:level.warning"). */
const texts = (catalogue: object): Record<string, string> => {
  const out: Record<string, string> = {};
  const walk = (o: object, prefix: string) => {
    for (const [k, v] of Object.entries(o)) {
      if (v && typeof v === 'object') walk(v, `${prefix}${k}.`);
      else out[`${prefix}${k}`] = v as string;
    }
  };
  for (const [ns, tree] of Object.entries(catalogue)) walk(tree as object, `${ns}:`);
  return out;
};

describe('catalogues', () => {
  it('a count agrees with its noun in both languages ("1 planta", "2 plantas")', () => {
    const es1 = createI18n('es', es);
    expect(es1.t('plants:total', { count: 1 })).toBe('1 planta');
    expect(es1.t('plants:total', { count: 2 })).toBe('2 plantas');
    const en1 = createI18n('en', en);
    expect(en1.t('plants:total', { count: 1 })).toBe('1 plant');
    expect(en1.t('plants:total', { count: 0 })).toBe('0 plants');
  });

  it('en and es have the same namespaces and the same keys in each', () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
    for (const ns of Object.keys(en) as Array<keyof typeof en>) expect(keys(es[ns]).sort()).toEqual(keys(en[ns]).sort());
  });

  it('no key is in one language only, and no text is empty or left untranslated', () => {
    const english = texts(en);
    const spanish = texts(es);
    expect(Object.keys(english).filter((k) => !(k in spanish))).toEqual([]);
    expect(Object.keys(spanish).filter((k) => !(k in english))).toEqual([]);
    const blank = (all: Record<string, string>) =>
      Object.entries(all)
        .filter(([, v]) => typeof v !== 'string' || v.trim() === '')
        .map(([k]) => k);
    expect(blank(english)).toEqual([]);
    expect(blank(spanish)).toEqual([]);
  });

  it('both languages keep to the glossary (one word per thing: advertencia, medidor, pasarela, …)', () => {
    expect(glossaryProblems(texts(en), 'en')).toEqual([]);
    expect(glossaryProblems(texts(es), 'es')).toEqual([]);
  });

  it('picks the catalogue by the language part of the stored choice, English for anything else', () => {
    expect(catalogueLanguage('es')).toBe('es');
    expect(catalogueLanguage('es-ES')).toBe('es');
    expect(catalogueLanguage('en-GB')).toBe('en');
    expect(catalogueLanguage('zh-CN')).toBe('en');
    expect(catalogueLanguage('')).toBe('en');
  });

  it('loads only the chosen language, keeping the stored code for the server', async () => {
    const spanish = await loadI18n('es');
    expect(spanish.t('menu:plants')).toBe(es.menu.plants);
    expect(spanish.t('menu:plants')).not.toBe(en.menu.plants);
    expect(Object.keys(spanish.store.data)).toEqual(['es']);
    const chinese = await loadI18n('zh-CN');
    expect(chinese.language).toBe('zh-CN');
    expect(chinese.t('menu:plants')).toBe(en.menu.plants);
  });
});
