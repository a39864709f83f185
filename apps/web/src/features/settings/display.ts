/** A setting's value as the screens write it: an option's label in the interface language, a number with its unit. */
import { useTranslation } from 'react-i18next';
import { catalogueLanguage } from '../../app/i18n.ts';
import { formatNumber } from '../../lib/format.ts';
import type { FieldValue, Problem, SettingField } from './form.ts';

export type Lang = 'en' | 'es';

export function useLang(): Lang {
  const { i18n } = useTranslation();
  return catalogueLanguage(i18n.language) === 'es' ? 'es' : 'en';
}

export function valueText(field: Pick<SettingField, 'enumeration' | 'unit'> | undefined, value: FieldValue, lang: Lang): string {
  if (value === null || value === undefined || value === '') return '--';
  if (typeof value === 'string') return value;
  const option = field?.enumeration?.find((o) => o.value === value);
  if (option) return option[lang];
  const text = formatNumber(value);
  return field?.unit ? `${text} ${field.unit}` : text;
}

/** "0 – 100 kW, step 0.1" / "one of the options": what a field allows. */
export function useAllowedText() {
  const { t } = useTranslation('settings');
  return (field: SettingField): string | null => {
    if (field.type !== 'number') return null;
    const unit = field.unit ? ` ${field.unit}` : '';
    const range =
      field.min !== null && field.max !== null
        ? t('allowed.range', { min: formatNumber(field.min), max: formatNumber(field.max), unit })
        : field.min !== null
          ? t('allowed.min', { min: formatNumber(field.min), unit })
          : field.max !== null
            ? t('allowed.max', { max: formatNumber(field.max), unit })
            : null;
    const step = field.step !== null ? t('allowed.step', { step: formatNumber(field.step) }) : null;
    return [range, step].filter(Boolean).join(', ') || null;
  };
}

/** The message of a value's problem, naming what the field allows. */
export function useProblemText() {
  const { t } = useTranslation('settings');
  return (problem: Problem, unit: string | null): string => {
    const u = unit ? ` ${unit}` : '';
    switch (problem.kind) {
      case 'range':
        return t('problem.range', {
          min: problem.min === null ? '−∞' : formatNumber(problem.min),
          max: problem.max === null ? '∞' : formatNumber(problem.max),
          unit: u,
        });
      case 'step':
        return t('problem.step', { step: formatNumber(problem.step), base: formatNumber(problem.base) });
      default:
        return t(`problem.${problem.kind}`);
    }
  };
}
