/**
 * Gateway binding by the SN and key on its label (both required):
 * the two fields with a "check" (gateways/check: 305 unknown SN, 1006 wrong key, 301 already
 * bound, shown under the field they concern), and on the edit page the plant's gateways with
 * "bind", "replace" (bind the new one, then unbind the old), "unbind" (after a confirmation naming
 * the gateway and the plant) and "restart".
 */
import { CheckCircleOutlined, DisconnectOutlined, ReloadOutlined, SwapOutlined, WifiOutlined } from '@ant-design/icons';
import { commandsApi, type DataOf, ErrorCode, plantsApi } from '@sunfleet/contracts';
import { App, Button, Col, Empty, Flex, Form, type FormInstance, List, Modal, Row, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { useGuardedAction } from '../../api/guard.ts';
import { useGatewayRestart } from '../../components/GatewayRestart.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import { SafeInput } from '../../components/SafeInput.tsx';
import ui from '../../components/ui.module.css';
import { formatZoned } from '../../lib/zonedTime.ts';
import { useInvalidatePlants } from './plantQueries.ts';

const SN = /^[A-Za-z0-9_-]{1,32}$/;
const KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** Which field a gateway code concerns. */
export function gatewayCodeField(code: number): 'sn' | 'key' | null {
  if (code === ErrorCode.gatewayMissing || code === ErrorCode.gatewayUsed) return 'sn';
  if (code === ErrorCode.gatewayCredentials) return 'key';
  return null;
}

/**
 * SN and key inside a form. `required`: both must be given; otherwise both or neither.
 */
export function GatewayClaimFields({
  form,
  snName,
  keyName,
  required,
}: {
  form: FormInstance;
  snName: string;
  keyName: string;
  required: boolean;
}) {
  const { t } = useTranslation('plants');
  const [checked, setChecked] = useState<string | null>(null);

  const [check, checking] = useGuardedAction(async () => {
    setChecked(null);
    const values = await form.validateFields([snName, keyName]).catch(() => null);
    const sn = String(values?.[snName] ?? '').trim();
    const key = String(values?.[keyName] ?? '').trim();
    if (!values || !sn || !key) {
      if (values) form.setFields([{ name: sn ? keyName : snName, errors: [t('gateway.required')] }]);
      return;
    }
    try {
      const ok = await call(plantsApi.checkGateway, { body: { sn, key } });
      setChecked(ok.sn);
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) {
        const field = gatewayCodeField(err.code) === 'key' ? keyName : snName;
        form.setFields([{ name: field, errors: [err.message] }]);
      }
    }
  });

  const pairRule = (other: string) => ({
    validator: (_: unknown, v: string | undefined) => {
      const mine = (v ?? '').trim();
      const theirs = String(form.getFieldValue(other) ?? '').trim();
      if (!mine && (required || theirs)) return Promise.reject(new Error(t('gateway.required')));
      return Promise.resolve();
    },
  });

  return (
    <Row gutter={16} align="top">
      <Col xs={24} md={10}>
        <Form.Item
          name={snName}
          label={t('gateway.sn')}
          dependencies={[keyName]}
          rules={[pairRule(keyName), { pattern: SN, message: t('gateway.snFormat') }]}
        >
          <SafeInput
            placeholder={t('gateway.snPlaceholder')}
            onChange={() => setChecked(null)}
            autoComplete="off"
            data-testid="gateway-sn"
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={10}>
        <Form.Item
          name={keyName}
          label={t('gateway.key')}
          dependencies={[snName]}
          rules={[pairRule(snName), { pattern: KEY, message: t('gateway.keyFormat') }]}
          extra={t('gateway.keyHint')}
        >
          <SafeInput
            placeholder={t('gateway.keyPlaceholder')}
            onChange={() => setChecked(null)}
            autoComplete="off"
            data-testid="gateway-key"
          />
        </Form.Item>
      </Col>
      <Col xs={24} md={4}>
        <Form.Item label=" " colon={false}>
          <Button onClick={check} loading={checking} block data-testid="gateway-check">
            {t('gateway.check')}
          </Button>
        </Form.Item>
      </Col>
      {checked && (
        <Col span={24}>
          <Typography.Text type="success" data-testid="gateway-ok">
            <CheckCircleOutlined /> {t('gateway.ok', { sn: checked })}
          </Typography.Text>
        </Col>
      )}
    </Row>
  );
}

type PlantGateway = DataOf<typeof plantsApi.getPlant>['gateways'][number];

/**
 * The plant's gateways, with bind, replace and unbind for those who may (station.gateway, can
 * edit) and restart (gateway.restart, can edit); times in the plant's zone, named.
 */
export function GatewaySection({
  plantId,
  plantName,
  timezone,
  gateways,
  canChange,
  canOperate,
  onChanged,
}: {
  plantId: number;
  plantName: string;
  /** The plant's IANA zone. */
  timezone: string;
  gateways: PlantGateway[];
  canChange: boolean;
  /** The caller operates the plant (not a visitor, not read-only). */
  canOperate: boolean;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation('plants');
  const [replacing, setReplacing] = useState<PlantGateway | null | undefined>(undefined);
  const canRestart = useMayCall()(commandsApi.restartGateways, canOperate);
  const restart = useGatewayRestart();
  const unbind = useGatewayUnbind(plantName, onChanged);
  return (
    <Flex vertical gap={12} data-testid="gateway-section">
      {gateways.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('gateway.none')} />
      ) : (
        <List
          dataSource={gateways}
          renderItem={(g) => (
            <List.Item
              key={g.sn}
              data-testid={`gateway-${g.sn}`}
              actions={[
                ...(canRestart
                  ? [
                      <Button
                        key="restart"
                        danger
                        icon={<ReloadOutlined />}
                        onClick={() => restart.confirm([{ sn: g.sn, name: g.alias ?? g.sn, plantName }])}
                        data-testid={`gateway-restart-${g.sn}`}
                      >
                        {t('common:restart.button')}
                      </Button>,
                    ]
                  : []),
                ...(canChange
                  ? [
                      <Button
                        key="replace"
                        icon={<SwapOutlined />}
                        onClick={() => setReplacing(g)}
                        data-testid={`gateway-replace-${g.sn}`}
                      >
                        {t('gateway.replace')}
                      </Button>,
                      <Button
                        key="unbind"
                        danger
                        icon={<DisconnectOutlined />}
                        onClick={() => unbind(g)}
                        data-testid={`gateway-unbind-${g.sn}`}
                      >
                        {t('gateway.unbind')}
                      </Button>,
                    ]
                  : []),
              ]}
            >
              <List.Item.Meta
                avatar={<WifiOutlined />}
                title={
                  <Flex gap={8} align="center" wrap>
                    <span>{g.sn}</span>
                    <Tag color={g.online ? 'success' : 'default'}>{g.online ? t('gateway.online') : t('gateway.offline')}</Tag>
                  </Flex>
                }
                description={[
                  g.alias,
                  g.lastOnlineAt
                    ? t('gateway.lastOnline', {
                        time: formatZoned(g.lastOnlineAt, timezone, i18n.language, { seconds: true }),
                      })
                    : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              />
            </List.Item>
          )}
        />
      )}
      {canChange && (
        <Button onClick={() => setReplacing(null)} className={ui.alignStart} data-testid="gateway-bind">
          {t('gateway.bind')}
        </Button>
      )}
      {restart.dialog}
      <BindDialog
        plantId={plantId}
        old={replacing ?? null}
        open={replacing !== undefined}
        onClose={() => setReplacing(undefined)}
        onDone={() => {
          setReplacing(undefined);
          onChanged();
        }}
      />
    </Flex>
  );
}

/** Unbind a gateway from its plant after a confirmation naming both; its devices leave the plant. */
function useGatewayUnbind(plantName: string, onDone: () => void) {
  const { t } = useTranslation('plants');
  const { message, modal } = App.useApp();
  const invalidate = useInvalidatePlants();
  return (g: PlantGateway) => {
    const gateway = g.alias ? `${g.alias} (${g.sn})` : g.sn;
    modal.confirm({
      title: <span data-testid="unbind-confirm-title">{t('gateway.unbindConfirmTitle', { gateway, plant: plantName })}</span>,
      content: t('gateway.unbindConfirmText', { plant: plantName }),
      okText: t('gateway.unbind'),
      okButtonProps: { danger: true, 'data-testid': 'unbind-confirm-ok' },
      cancelText: t('common:cancel'),
      onOk: async () => {
        try {
          await call(plantsApi.unbindGateway, { params: { sn: g.sn } });
        } catch (err) {
          // A refusal the screen handles (305: no longer this caller's gateway) is told here.
          if (err instanceof ApiError && err.tolerated) message.error(err.message);
          return;
        }
        await invalidate();
        message.success(t('gateway.unbound', { gateway, plant: plantName }));
        onDone();
      },
    });
  };
}

function BindDialog({
  plantId,
  old,
  open,
  onClose,
  onDone,
}: {
  plantId: number;
  old: PlantGateway | null;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('plants');
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<{ sn: string; key: string }>();
  const invalidate = useInvalidatePlants();

  const bind = async (sn: string, key: string) => {
    try {
      await call(plantsApi.bindGateway, { params: { id: plantId }, body: { sn, key } });
    } catch (err) {
      if (err instanceof ApiError && err.tolerated)
        form.setFields([{ name: gatewayCodeField(err.code) === 'key' ? 'key' : 'sn', errors: [err.message] }]);
      return;
    }
    // Replace = bind the new one, then unbind the old.
    if (old && old.sn !== sn) {
      try {
        await call(plantsApi.unbindGateway, { params: { sn: old.sn } });
      } catch {
        message.warning(t('gateway.oldStillBound', { sn: old.sn }));
      }
    }
    await invalidate();
    message.success(old ? t('gateway.replaced', { sn }) : t('gateway.bound', { sn }));
    form.resetFields();
    onDone();
  };

  const [submit, busy] = useGuardedAction(async ({ sn, key }: { sn: string; key: string }) => {
    const s = sn.trim();
    const k = key.trim();
    if (!old) return bind(s, k);
    await new Promise<void>((resolve) => {
      modal.confirm({
        title: t('gateway.replaceConfirmTitle'),
        content: t('gateway.replaceConfirmText', { old: old.sn, sn: s }),
        okText: t('gateway.replace'),
        okButtonProps: { 'data-testid': 'gateway-replace-ok' },
        cancelText: t('common:cancel'),
        onOk: () => bind(s, k).finally(resolve),
        onCancel: () => resolve(),
      });
    });
  });

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={old ? t('gateway.replaceTitle', { sn: old.sn }) : t('gateway.bindTitle')}
      footer={null}
      destroyOnHidden
      width={720}
    >
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <GatewayClaimFields form={form} snName="sn" keyName="key" required />
        <Flex justify="end" gap={8}>
          <Button onClick={onClose}>{t('common:cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="gateway-bind-submit">
            {old ? t('gateway.replace') : t('gateway.bind')}
          </Button>
        </Flex>
      </Form>
    </Modal>
  );
}
