import { describe, expect, it } from 'vitest';
import en from '../locales/en/index.ts';
import es from '../locales/es/index.ts';
import { catalogueLanguage, loadI18n } from './i18n.ts';

const keys = (o: object, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));

describe('catalogues', () => {
  it('en and es have the same namespaces and the same keys in each', () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
    for (const ns of Object.keys(en) as Array<keyof typeof en>) expect(keys(es[ns]).sort()).toEqual(keys(en[ns]).sort());
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
