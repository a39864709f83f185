/**
 * The plant's weather stations (for users who can edit the plant): the stations the plant has
 * (SN, alias, protocol, status, last update), attaching one by SN (`saveAuthInfo`; the station
 * must be a weather device behind one of the plant's gateways, otherwise 404 shows under the
 * field) and, as help, the station products the portal reads. After attaching, the weather card
 * and the list are fetched again.
 */
import { type DataOf, devicesApi, ErrorCode, plantEnergyApi } from '@sunfleet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Collapse, Flex, Form, Modal, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { endpointKey } from '../../api/hooks.ts';
import { CardError } from '../../components/CardState.tsx';
import { ListTable } from '../../components/ListTable.tsx';
import { SafeInput } from '../../components/SafeInput.tsx';
import ui from '../../components/ui.module.css';
import { stateName } from '../../lib/deviceNames.ts';
import { deviceStateStyle } from '../../lib/statusColours.ts';
import { formatZoned, withZone } from '../../lib/zonedTime.ts';
import { useWeatherProducts, useWeatherStations } from './overviewQueries.ts';

type Station = DataOf<typeof plantEnergyApi.weatherStationInfo>[number];

const SN_RE = new RegExp(devicesApi.SN_PATTERN);

/** Loaded when the weather card's stations button is first pressed (its table stays off the overview's first paint). */
export default function WeatherStationsDialog({
  plantId,
  timezone,
  onClose,
}: {
  plantId: number;
  timezone: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('overview');
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<{ sn: string }>();
  const [saving, setSaving] = useState(false);
  const stations = useWeatherStations(plantId, true);
  const products = useWeatherProducts(true);

  const attach = async () => {
    let values: { sn: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const sn = values.sn.trim();
    setSaving(true);
    try {
      // Codes the dialog shows itself: 404 (no such weather device behind the plant's
      // gateways), 2 (no edit rights on the plant), 4 (validation).
      const station = await call(plantEnergyApi.saveWeatherAuth, {
        body: { plantId, sn },
        tolerate: [ErrorCode.noPermission, ErrorCode.validation, ErrorCode.notFound],
      });
      message.success(t('stations.attached', { sn: station.sn }));
      form.resetFields();
      await Promise.all(
        [plantEnergyApi.weatherStationInfo, plantEnergyApi.plantWeatherRealtime, plantEnergyApi.weather].map((ep) =>
          client.invalidateQueries({ queryKey: endpointKey(ep) }),
        ),
      );
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) {
        const text = err.code === ErrorCode.notFound ? t('stations.notFound', { sn }) : err.message;
        form.setFields([{ name: 'sn', errors: [text] }]);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t('stations.title')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('stations.close')}</Button>}
      width={720}
      data-testid="weather-stations-dialog"
    >
      <Flex vertical gap={16}>
        {stations.isError && !stations.data ? (
          <CardError error={stations.error} onRetry={() => void stations.refetch()} testId="weather-stations-error" />
        ) : (
          <ListTable<Station>
            size="small"
            rowKey="sn"
            loading={stations.isPending}
            dataSource={stations.data ?? []}
            pagination={false}
            stickyHeader={false}
            locale={{ emptyText: t('stations.empty') }}
            data-testid="weather-stations-table"
            columns={[
              { key: 'sn', title: t('stations.sn'), dataIndex: 'sn' },
              { key: 'alias', title: t('stations.alias'), render: (_, s) => s.alias ?? '--' },
              { key: 'protocol', title: t('stations.protocol'), dataIndex: 'protocol' },
              {
                key: 'status',
                title: t('stations.status'),
                render: (_, s) => <Tag color={deviceStateStyle[s.status].tag}>{stateName(s.status, i18n.language)}</Tag>,
              },
              {
                key: 'lastUpdate',
                title: withZone(t('stations.lastUpdate'), timezone),
                render: (_, s) => (s.lastUpdate ? formatZoned(s.lastUpdate, timezone, i18n.language, { label: false }) : '--'),
              },
            ]}
          />
        )}
        <Form form={form} layout="vertical" requiredMark={false} onFinish={() => void attach()}>
          <Form.Item label={t('stations.attach')} extra={t('stations.attachHint')} className={ui.flush}>
            <Flex gap={8} align="start">
              <Form.Item
                name="sn"
                noStyle
                rules={[
                  { required: true, whitespace: true, message: t('stations.snRequired') },
                  {
                    validator: (_, value: string | undefined) =>
                      !value?.trim() || SN_RE.test(value.trim())
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('stations.snInvalid'))),
                  },
                ]}
              >
                <SafeInput
                  maxLength={32}
                  placeholder={t('stations.snPlaceholder')}
                  data-testid="weather-station-sn"
                  className={ui.grow}
                />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={saving} data-testid="weather-station-attach">
                {t('stations.attachButton')}
              </Button>
            </Flex>
          </Form.Item>
        </Form>
        <Collapse
          size="small"
          items={[
            {
              key: 'products',
              label: t('stations.products'),
              children: products.isPending ? (
                <Typography.Text type="secondary">…</Typography.Text>
              ) : products.isError ? (
                <CardError error={products.error} onRetry={() => void products.refetch()} testId="weather-products-error" />
              ) : products.data.length === 0 ? (
                <Typography.Text type="secondary">{t('stations.noProducts')}</Typography.Text>
              ) : (
                <Flex vertical gap={8} data-testid="weather-products">
                  {products.data.map((p) => (
                    <Flex vertical key={p.protocol}>
                      <Typography.Text strong>
                        {p.name} <Typography.Text type="secondary">({p.protocol})</Typography.Text>
                      </Typography.Text>
                      <Typography.Text type="secondary" className={ui.note}>
                        {t('stations.fields', { fields: p.fields.join(', ') })}
                      </Typography.Text>
                    </Flex>
                  ))}
                </Flex>
              ),
            },
          ]}
        />
      </Flex>
    </Modal>
  );
}
