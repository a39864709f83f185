/**
 * Firmware upgrade, from wherever gateways or inverters are listed (a device's page, the lists'
 * selection): a dialog to pick an enabled image of the devices' type, naming each device, with
 * the rollout's waves for several (canary, wave size, failure threshold that pauses it); then one
 * call (`inverter/{sn}/upgrade` or `gateway/{id}/upgrade` for one, the batch calls for several)
 * and its result: the devices left out with why, and a link to the rollout's page.
 * (A shared piece, like the gateway restart: the device pages may not import a feature.)
 */
import { type DataOf, upgradesApi } from '@sunfleet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Flex, Form, List, Modal, Select, Typography } from 'antd';
import { type ReactNode, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, call } from '../api/client.ts';
import { endpointKey, useApiQuery } from '../api/hooks.ts';
import { NumberInput } from './NumberInput.tsx';
import parts from './parts.module.css';
import ui from './ui.module.css';

export interface UpgradeTarget {
  sn: string;
  /** A gateway's id (its single upgrade is called by id). */
  id?: number;
  /** What the user calls it: its alias, or its SN. */
  name: string;
  plantName: string | null;
}

type Kind = 'gateway' | 'inverter';
type Started = DataOf<typeof upgradesApi.gatewaysBatchUpgrade>;

export const rolloutPath = (id: string) => `/firmware/rollout/${id}`;

interface Plan {
  firmId?: number;
  canarySize: number;
  waveSize: number;
  failureThreshold: number;
}

const defaults = (count: number): Plan => ({
  canarySize: Math.min(count, upgradesApi.upgradeLimits.canarySize),
  waveSize: upgradesApi.upgradeLimits.waveSize,
  failureThreshold: upgradesApi.upgradeLimits.failureThreshold,
});

function UpgradeForm({
  kind,
  targets,
  onStarted,
  onCancel,
}: {
  kind: Kind;
  targets: readonly UpgradeTarget[];
  onStarted: (s: Started) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('common');
  const firmwares = useApiQuery(upgradesApi.upgradeFirmwares, { query: { type: kind } });
  const [plan, setPlan] = useState<Plan>(() => defaults(targets.length));
  const [busy, setBusy] = useState(false);
  const many = targets.length > 1;
  const chosen = firmwares.data?.find((f) => f.id === plan.firmId);

  const submit = async () => {
    if (plan.firmId === undefined) return;
    setBusy(true);
    try {
      const firmId = plan.firmId;
      const options = { canarySize: plan.canarySize, waveSize: plan.waveSize, failureThreshold: plan.failureThreshold };
      const one = targets[0]!;
      const started: Started =
        !many && kind === 'inverter'
          ? await call(upgradesApi.inverterUpgrade, { params: { sn: one.sn }, query: { firmId } })
          : !many && one.id !== undefined
            ? await call(upgradesApi.gatewayUpgrade, { params: { id: one.id }, query: { firmId } })
            : kind === 'inverter'
              ? await call(upgradesApi.inverterBatchUpgrade, {
                  params: { sn: one.sn },
                  body: { firmId, sns: targets.slice(1).map((d) => d.sn), ...options },
                })
              : await call(upgradesApi.gatewaysBatchUpgrade, { body: { firmId, sns: targets.map((d) => d.sn), ...options } });
      onStarted(started);
    } catch (err) {
      // The client has already said what went wrong (1001, 1005, 4001 as a warning, 600/305, 2).
      if (!(err instanceof ApiError)) throw err;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex vertical gap={12} data-testid="upgrade-form">
      <Typography.Paragraph className={ui.flush}>{t('upgrade.text', { count: targets.length })}</Typography.Paragraph>
      <List
        size="small"
        bordered
        className={parts.scrollList}
        dataSource={[...targets]}
        renderItem={(d) => (
          <List.Item key={d.sn} data-testid={`upgrade-target-${d.sn}`}>
            {t('upgrade.target', { device: d.name, plant: d.plantName ?? t('restart.noPlant') })}
          </List.Item>
        )}
      />
      <Form layout="vertical" component={false}>
        <Form.Item label={t('upgrade.firmware')} required>
          <Select
            data-testid="upgrade-firmware"
            loading={firmwares.isPending}
            placeholder={t('upgrade.pickFirmware')}
            value={plan.firmId}
            onChange={(firmId: number) => setPlan((p) => ({ ...p, firmId }))}
            notFoundContent={firmwares.isError ? t('upgrade.firmwareError') : t('upgrade.noFirmware')}
            options={(firmwares.data ?? []).map((f) => ({
              value: f.id,
              label: `${f.productName} · ${f.version} (${f.fileName})`,
            }))}
          />
        </Form.Item>
        {chosen?.changeLog && (
          <Typography.Paragraph type="secondary" className={ui.note} data-testid="upgrade-changelog">
            {chosen.changeLog}
          </Typography.Paragraph>
        )}
        {many && (
          <Flex gap={12} wrap>
            <Form.Item label={t('upgrade.canary')} tooltip={t('upgrade.canaryHint')}>
              <NumberInput
                data-testid="upgrade-canary"
                min={1}
                max={targets.length}
                value={plan.canarySize}
                onChange={(v) => setPlan((p) => ({ ...p, canarySize: v ?? 1 }))}
              />
            </Form.Item>
            <Form.Item label={t('upgrade.waveSize')}>
              <NumberInput
                data-testid="upgrade-wave"
                min={1}
                max={5000}
                value={plan.waveSize}
                onChange={(v) => setPlan((p) => ({ ...p, waveSize: v ?? 1 }))}
              />
            </Form.Item>
            <Form.Item label={t('upgrade.threshold')} tooltip={t('upgrade.thresholdHint')}>
              <NumberInput
                data-testid="upgrade-threshold"
                min={0}
                max={100}
                addonAfter="%"
                value={plan.failureThreshold}
                onChange={(v) => setPlan((p) => ({ ...p, failureThreshold: v ?? 0 }))}
              />
            </Form.Item>
          </Flex>
        )}
      </Form>
      <Flex justify="end" gap={8}>
        <Button onClick={onCancel}>{t('cancel')}</Button>
        <Button
          type="primary"
          danger
          disabled={plan.firmId === undefined}
          loading={busy}
          onClick={submit}
          data-testid="upgrade-ok"
        >
          {chosen ? t('upgrade.okVersion', { version: chosen.version, count: targets.length }) : t('upgrade.ok')}
        </Button>
      </Flex>
    </Flex>
  );
}

function UpgradeResult({ started, onClose }: { started: Started; onClose: () => void }) {
  const { t } = useTranslation('common');
  return (
    <Flex vertical gap={12} data-testid="upgrade-result">
      <Alert type="success" showIcon message={t('upgrade.started', { count: started.devices.length })} />
      {started.refused.length > 0 && (
        <Alert
          type="warning"
          showIcon
          message={t('upgrade.refused', { count: started.refused.length })}
          description={
            <List
              size="small"
              dataSource={started.refused}
              renderItem={(r) => (
                <List.Item key={r.sn} data-testid={`upgrade-refused-${r.sn}`}>
                  {r.sn}: {t(`upgrade.refusedCode.${r.code}`, { defaultValue: r.reason })}
                </List.Item>
              )}
            />
          }
        />
      )}
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{t('upgrade.close')}</Button>
        <Link to={rolloutPath(started.rolloutId)} onClick={onClose} data-testid="upgrade-rollout-link">
          <Button type="primary">{t('upgrade.openRollout')}</Button>
        </Link>
      </Flex>
    </Flex>
  );
}

/** `open(targets)` opens the upgrade dialog for those devices; `dialog` is to be rendered by the page. */
export function useUpgrade(kind: Kind): { open: (targets: readonly UpgradeTarget[]) => void; dialog: ReactNode } {
  const { t } = useTranslation('common');
  const [targets, setTargets] = useState<readonly UpgradeTarget[] | null>(null);
  const [started, setStarted] = useState<Started | null>(null);
  const client = useQueryClient();
  // The devices' upgrade cards read their new upgrade at once.
  const onStarted = (s: Started) => {
    setStarted(s);
    void client.invalidateQueries({ queryKey: endpointKey(upgradesApi.inverterUpgradeProgress) });
  };
  const open = useCallback((list: readonly UpgradeTarget[]) => {
    if (list.length === 0) return;
    setStarted(null);
    setTargets(list);
  }, []);
  const close = () => {
    setTargets(null);
    setStarted(null);
  };
  const one = targets?.length === 1 ? targets[0] : undefined;
  const dialog = (
    <Modal
      open={targets !== null}
      title={
        <span data-testid="upgrade-title">
          {one
            ? t(`upgrade.titleOne.${kind}`, { device: one.name })
            : t(`upgrade.titleMany.${kind}`, { count: targets?.length ?? 0 })}
        </span>
      }
      onCancel={close}
      footer={null}
      destroyOnHidden
      width={560}
    >
      {targets &&
        (started ? (
          <UpgradeResult started={started} onClose={close} />
        ) : (
          <UpgradeForm kind={kind} targets={targets} onStarted={onStarted} onCancel={close} />
        ))}
    </Modal>
  );
  return { open, dialog };
}
