/**
 * One image in full: product, version, file, size, SHA-256 and signature (what a device checks
 * before it flashes), and the fields an operator may still change (hardware version, compatible
 * software, upgrade mode, change log).
 */
import { firmwareApi as api } from '@sunfleet/contracts';
import { App, Button, Descriptions, Drawer, Form, Input, Radio, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { formatKib } from './criteria.ts';
import css from './firmware.module.css';
import { type FirmwareRow, type FirmwareType, useFirmwareRefresh } from './firmwareQueries.ts';

type Edit = api.FirmwareEdit;

export function FirmwareDrawer({
  type,
  row,
  mayEdit,
  onClose,
  onSaved,
}: {
  type: FirmwareType;
  row: FirmwareRow | null;
  mayEdit: boolean;
  onClose: () => void;
  onSaved: (row: FirmwareRow) => void;
}) {
  const { t, i18n } = useTranslation('firmware');
  const { message } = App.useApp();
  const refresh = useFirmwareRefresh();
  const [form] = Form.useForm<Edit>();
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    setEditing(false);
    if (row) form.setFieldsValue(row as Edit);
  }, [row, form]);

  const save = async () => {
    if (!row) return;
    const v = await form.validateFields();
    const edit = {
      hardwareVersion: v.hardwareVersion?.trim() || null,
      compatibleSoftware: v.compatibleSoftware?.trim() || null,
      upgradeMode: v.upgradeMode,
      changeLog: v.changeLog?.trim() || null,
    };
    setSaving(true);
    try {
      const saved =
        type === 'gateway'
          ? await call(api.editGatewayFirmware, { params: { id: row.id }, body: edit })
          : await call(api.saveInverterFirmware, {
              body: { id: row.id, ...Object.fromEntries(Object.entries(edit).map(([k, x]) => [k, x ?? ''])) },
            });
      message.success(t('common:saved'));
      setEditing(false);
      onSaved(saved);
      await refresh();
    } catch {
      // The client has shown why.
    } finally {
      setSaving(false);
    }
  };

  const dash = (v: string | null | undefined) => v || '--';
  return (
    <Drawer
      open={!!row}
      onClose={onClose}
      width={560}
      title={row ? `${row.productName} · ${row.version}` : ''}
      extra={
        mayEdit && row && !editing ? (
          <Button onClick={() => setEditing(true)} data-testid="firmware-edit">
            {t('detail.edit')}
          </Button>
        ) : null
      }
      data-testid="firmware-drawer"
    >
      {row && !editing && (
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('field.productName')}>{row.productName}</Descriptions.Item>
          <Descriptions.Item label={t('field.epn')}>{dash(row.epn)}</Descriptions.Item>
          <Descriptions.Item label={t('field.brand')}>{dash(row.brand)}</Descriptions.Item>
          <Descriptions.Item label={t('field.type')}>{t(`type.${row.type}`)}</Descriptions.Item>
          <Descriptions.Item label={t('field.version')}>{row.version}</Descriptions.Item>
          <Descriptions.Item label={t('field.hardwareVersion')}>{dash(row.hardwareVersion)}</Descriptions.Item>
          <Descriptions.Item label={t('field.compatibleSoftware')}>{dash(row.compatibleSoftware)}</Descriptions.Item>
          <Descriptions.Item
            label={t('field.upgradeMode')}
          >{`${row.upgradeMode} · ${t(`mode.${row.upgradeMode}`)}`}</Descriptions.Item>
          <Descriptions.Item label={t('field.fileName')}>{row.fileName}</Descriptions.Item>
          <Descriptions.Item label={t('field.size')}>
            {`${formatKib(row.size, i18n.language)} (${new Intl.NumberFormat(i18n.language).format(row.size)} B)`}
          </Descriptions.Item>
          <Descriptions.Item label="SHA-256">
            <Typography.Text code copyable className={css.digest}>
              {row.sha256}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('field.signature')}>
            <Typography.Text code copyable className={css.digest}>
              {row.signature}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('field.enabled')}>
            {row.enabled ? t('filter.enabledOnly') : t('filter.disabledOnly')}
          </Descriptions.Item>
          <Descriptions.Item label={t('field.createdAt')}>{formatDateTime(row.createdAt)}</Descriptions.Item>
          <Descriptions.Item label={t('field.changeLog')}>
            <Typography.Paragraph className={css.changeLog}>{dash(row.changeLog)}</Typography.Paragraph>
          </Descriptions.Item>
        </Descriptions>
      )}
      {row && editing && (
        <Form<Edit> form={form} layout="vertical">
          <Form.Item name="hardwareVersion" label={t('field.hardwareVersion')}>
            <Input maxLength={api.firmwareRules.textMax} />
          </Form.Item>
          <Form.Item name="compatibleSoftware" label={t('field.compatibleSoftware')}>
            <Input maxLength={api.firmwareRules.textMax} />
          </Form.Item>
          <Form.Item name="upgradeMode" label={t('field.upgradeMode')}>
            <Radio.Group options={api.upgradeModes.map((m) => ({ value: m, label: m }))} optionType="button" />
          </Form.Item>
          <Form.Item name="changeLog" label={t('field.changeLog')}>
            <Input.TextArea rows={5} maxLength={api.firmwareRules.changeLogMax} showCount data-testid="firmware-changelog" />
          </Form.Item>
          <Space>
            <Button
              type="primary"
              loading={saving}
              onClick={() => void save().catch(() => undefined)}
              data-testid="firmware-save"
            >
              {t('common:save')}
            </Button>
            <Button onClick={() => setEditing(false)}>{t('common:cancel')}</Button>
          </Space>
        </Form>
      )}
    </Drawer>
  );
}
