/**
 * Inverter types in the order the operator sets: add at the end, rename, move up or down, and
 * delete (confirmed; a type with products is kept, 1007). Names are unique (4006).
 */
import { ArrowDownOutlined, ArrowUpOutlined, PlusOutlined } from '@ant-design/icons';
import { firmwareApi as api, ErrorCode } from '@sunfleet/contracts';
import { App, Button, Flex, Form, Input, Modal, Space, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { useApiQuery } from '../../api/hooks.ts';
import { ListTable } from '../../components/ListTable.tsx';
import { PageError } from '../../components/PageState.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import { type InverterTypeRow, useFirmwareRefresh } from './firmwareQueries.ts';

export function InverterTypesTab() {
  const { t } = useTranslation('firmware');
  const { message, modal } = App.useApp();
  const mayEdit = useMayCall()(api.addInverterType);
  const refresh = useFirmwareRefresh();
  const list = useApiQuery(api.inverterTypes, {});
  const [naming, setNaming] = useState<InverterTypeRow | 'new' | null>(null);
  const [moving, setMoving] = useState<number | null>(null);

  const move = async (row: InverterTypeRow, direction: 'up' | 'down') => {
    setMoving(row.id);
    try {
      await call(api.moveInverterType, { params: { id: row.id }, body: { direction } });
      await refresh();
    } catch {
      // The client has shown why.
    } finally {
      setMoving(null);
    }
  };

  const remove = (row: InverterTypeRow) =>
    modal.confirm({
      title: t('types.deleteTitle', { name: row.name }),
      okText: t('delete.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common:cancel'),
      onOk: async () => {
        try {
          await call(api.deleteInverterType, { params: { id: row.id } });
          message.success(t('delete.done', { count: 1 }));
          await refresh();
        } catch (error) {
          if (error instanceof ApiError && error.tolerated) message.error(t('types.hasProducts', { name: row.name }));
        }
      },
    });

  const rows = list.data ?? [];
  const columns: TableColumnsType<InverterTypeRow> = [
    { title: t('types.order'), key: 'order', width: 80, render: (_: unknown, _row, i) => i + 1 },
    { title: t('field.inverterType'), dataIndex: 'name', width: 220 },
    { title: t('types.products'), dataIndex: 'products', width: 110, align: 'right' },
    {
      title: t('field.actions'),
      key: 'actions',
      fixed: 'right',
      width: 240,
      render: (_: unknown, row, i) =>
        mayEdit ? (
          <Space size={4}>
            <Button
              size="small"
              icon={<ArrowUpOutlined />}
              aria-label={t('types.up', { name: row.name })}
              disabled={i === 0}
              loading={moving === row.id}
              onClick={() => void move(row, 'up')}
            />
            <Button
              size="small"
              icon={<ArrowDownOutlined />}
              aria-label={t('types.down', { name: row.name })}
              disabled={i === rows.length - 1}
              onClick={() => void move(row, 'down')}
            />
            <Button type="link" size="small" onClick={() => setNaming(row)}>
              {t('types.rename')}
            </Button>
            <Button
              type="link"
              size="small"
              danger
              disabled={row.products > 0}
              title={row.products > 0 ? t('types.hasProducts', { name: row.name }) : undefined}
              onClick={() => remove(row)}
            >
              {t('delete.ok')}
            </Button>
          </Space>
        ) : null,
    },
  ];

  return (
    <>
      <Flex justify="flex-end" className={ui.gapBelow}>
        {mayEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setNaming('new')} data-testid="type-add">
            {t('types.add')}
          </Button>
        )}
      </Flex>
      {list.isError && !list.data ? (
        <PageError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <ListTable<InverterTypeRow>
          aria-label={t('tabs.types')}
          rowKey="id"
          columns={columns}
          dataSource={rows}
          loading={list.isPending || list.isFetching}
          locale={{ emptyText: t('types.empty') }}
          pagination={false}
          data-testid="types-table"
        />
      )}
      {naming && (
        <TypeNameDialog type={naming === 'new' ? null : naming} onClose={() => setNaming(null)} onDone={() => void refresh()} />
      )}
    </>
  );
}

function TypeNameDialog({ type, onClose, onDone }: { type: InverterTypeRow | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('firmware');
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const { name } = await form.validateFields();
    setSaving(true);
    try {
      if (type) await call(api.editInverterType, { params: { id: type.id }, body: { name: name.trim() } });
      else await call(api.addInverterType, { body: { name: name.trim() } });
      onDone();
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.inverterTypeExists)
        form.setFields([{ name: 'name', errors: [error.message] }]);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={type ? t('types.renameTitle', { name: type.name }) : t('types.add')}
      okText={t('common:save')}
      cancelText={t('common:cancel')}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ name: type?.name ?? '' }}>
        <Form.Item
          name="name"
          label={t('field.inverterType')}
          rules={[{ required: true, whitespace: true, message: t('types.nameRequired') }, { max: 32 }]}
        >
          <Input maxLength={32} data-testid="type-name" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
