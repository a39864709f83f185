/**
 * Delete plants after a confirmation (owner rights). One plant: what is attached to it is shown
 * first (plant/{id}/check/device), since its gateways and devices are unbound. Several: one
 * confirmation, then one delete call per plant; the ones deleted leave the selection.
 */
import { plantsApi } from '@sunfleet/contracts';
import { App, Typography } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client.ts';
import ui from '../../components/ui.module.css';
import { useInvalidatePlants } from './plantQueries.ts';
import { plantSelection } from './selection.ts';

export interface Deletable {
  id: number;
  name: string;
}

export function useDeletePlants() {
  const { t } = useTranslation('plants');
  const { modal, message } = App.useApp();
  const invalidate = useInvalidatePlants();

  const run = useCallback(
    async (plants: readonly Deletable[]) => {
      const deleted: number[] = [];
      for (const p of plants) {
        try {
          await call(plantsApi.deletePlant, { params: { id: p.id } });
          deleted.push(p.id);
        } catch {
          // The client has shown why; the others still go.
        }
      }
      plantSelection.dispatch({ type: 'remove', ids: deleted });
      await invalidate();
      if (deleted.length === plants.length) message.success(t('delete.done', { count: deleted.length }));
      else message.warning(t('delete.partial', { count: deleted.length, total: plants.length }));
    },
    [invalidate, message, t],
  );

  const deleteOne = useCallback(
    async (plant: Deletable) => {
      const devices = await call(plantsApi.checkDevice, { params: { stationId: plant.id }, quiet: true }).catch(() => null);
      const attached =
        devices?.hasDevices || (devices?.gateways ?? 0) > 0
          ? t('delete.attached', {
              gateways: devices?.gateways ?? 0,
              inverters: devices?.inverters ?? 0,
              others: (devices?.batteries ?? 0) + (devices?.meters ?? 0) + (devices?.weather ?? 0),
            })
          : null;
      await new Promise<void>((resolve) => {
        modal.confirm({
          title: t('delete.confirmTitle', { name: plant.name }),
          content: (
            <>
              <Typography.Paragraph className={attached ? ui.gapBelowXs : ui.flush}>
                {t('delete.confirmText')}
              </Typography.Paragraph>
              {attached && <Typography.Text type="warning">{attached}</Typography.Text>}
            </>
          ),
          okText: t('delete.ok'),
          okButtonProps: { danger: true, 'data-testid': 'delete-confirm-ok' },
          cancelText: t('common:cancel'),
          onOk: () => run([plant]).finally(resolve),
          onCancel: () => resolve(),
        });
      });
    },
    [modal, run, t],
  );

  const deleteMany = useCallback(
    async (plants: readonly Deletable[]) =>
      new Promise<void>((resolve) => {
        modal.confirm({
          title: t('delete.confirmManyTitle', { count: plants.length }),
          content: (
            <>
              <Typography.Paragraph className={ui.gapBelowXs}>{t('delete.confirmText')}</Typography.Paragraph>
              <Typography.Text type="secondary">
                {plants
                  .slice(0, 8)
                  .map((p) => p.name)
                  .join(', ')}
                {plants.length > 8 ? ` ${t('delete.andMore', { count: plants.length - 8 })}` : ''}
              </Typography.Text>
            </>
          ),
          okText: t('delete.ok'),
          okButtonProps: { danger: true, 'data-testid': 'delete-confirm-ok' },
          cancelText: t('common:cancel'),
          onOk: () => run(plants).finally(resolve),
          onCancel: () => resolve(),
        });
      }),
    [modal, run, t],
  );

  return { deleteOne, deleteMany };
}
