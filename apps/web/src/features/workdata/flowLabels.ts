/**
 * The words signed power is shown with, in the interface language: the convention a table or
 * picker names ("+ import / − export") and the directions a chart splits it into ("Import").
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowDirection } from '../../lib/chart.ts';
import type { SignNotes } from './format.ts';

export interface FlowLabels {
  signs: SignNotes;
  directions: Readonly<Record<FlowDirection, string>>;
}

export function useFlowLabels(): FlowLabels {
  const { t } = useTranslation('workdata');
  return useMemo(
    () => ({
      signs: { grid: t('signs.grid'), battery: t('signs.battery') },
      directions: {
        gridImport: t('directions.gridImport'),
        gridExport: t('directions.gridExport'),
        discharge: t('directions.discharge'),
        charge: t('directions.charge'),
      },
    }),
    [t],
  );
}
