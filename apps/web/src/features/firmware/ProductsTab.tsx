/**
 * The products firmware is uploaded for: inverter products (under an inverter type; paged, by
 * name and type, added, edited and deleted, several at once, with a confirmation) or gateway
 * products (added and edited). Names are unique within a type (4005, shown on the field).
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { firmwareApi as api, ErrorCode } from '@sunfleet/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { App, Button, Flex, Form, Input, Modal, Select, Space, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { useApiQuery } from '../../api/hooks.ts';
import { ListTable } from '../../components/ListTable.tsx';
import { PageError } from '../../components/PageState.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import { formatDateTime } from '../../lib/format.ts';
import css from './firmware.module.css';
import { type FirmwareType, type ProductRow, useFirmwareRefresh } from './firmwareQueries.ts';

interface Values {
  name: string;
  epn?: string;
  brand?: string;
  inverterTypeId?: number;
  hardwareVersions?: string[];
}

export function ProductsTab({ type }: { type: FirmwareType }) {
  const { t } = useTranslation('firmware');
  const { message, modal } = App.useApp();
  const mayCall = useMayCall();
  const mayEdit = mayCall(type === 'gateway' ? api.saveGatewayProduct : api.addInverterProduct);
  const refresh = useFirmwareRefresh();
  const [page, setPage] = useState({ page: 1, size: 20 });
  const [name, setName] = useState('');
  const [typeFilter, setTypeFilter] = useState<number | undefined>();
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<ProductRow | 'new' | null>(null);

  const inverterList = useApiQuery(
    api.inverterProducts,
    { query: { ...page, ...(name ? { name } : {}), ...(typeFilter ? { inverterTypeId: typeFilter } : {}) } },
    { enabled: type === 'inverter', placeholderData: keepPreviousData },
  );
  const gatewayList = useApiQuery(api.products, { query: { type: 'gateway' } }, { enabled: type === 'gateway' });
  const types = useApiQuery(api.inverterTypes, {}, { enabled: type === 'inverter' });
  const list = type === 'inverter' ? inverterList : gatewayList;
  const rows = type === 'inverter' ? (inverterList.data?.list ?? []) : (gatewayList.data ?? []);

  const remove = (ids: number[]) =>
    modal.confirm({
      title: t('products.deleteTitle', { count: ids.length }),
      content: t('products.deleteContent'),
      okText: t('delete.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common:cancel'),
      onOk: async () => {
        try {
          await call(api.deleteInverterProducts, { body: { ids } });
          message.success(t('delete.done', { count: ids.length }));
          setSelected([]);
          await refresh();
        } catch (error) {
          if (error instanceof ApiError && error.tolerated) message.error(error.message);
        }
      },
    });

  const columns: TableColumnsType<ProductRow> = [
    { title: t('field.productName'), dataIndex: 'name', width: 160 },
    ...(type === 'inverter'
      ? [{ title: t('field.inverterType'), dataIndex: 'inverterTypeName', width: 140, render: (v: string | null) => v ?? '--' }]
      : []),
    { title: t('field.epn'), dataIndex: 'epn', width: 130, render: (v: string | null) => v ?? '--' },
    { title: t('field.brand'), dataIndex: 'brand', width: 120, render: (v: string | null) => v ?? '--' },
    {
      title: t('field.hardwareVersions'),
      dataIndex: 'hardwareVersions',
      width: 200,
      render: (v: string[]) => (v.length ? v.map((h) => <Tag key={h}>{h}</Tag>) : '--'),
    },
    { title: t('products.images'), dataIndex: 'firmware', width: 100, align: 'right' },
    { title: t('field.createdAt'), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
    {
      title: t('field.actions'),
      key: 'actions',
      fixed: 'right',
      width: 150,
      render: (_: unknown, row) =>
        mayEdit ? (
          <Space size={4}>
            <Button type="link" size="small" onClick={() => setEditing(row)}>
              {t('detail.edit')}
            </Button>
            {type === 'inverter' && (
              <Button type="link" size="small" danger disabled={row.firmware > 0} onClick={() => remove([row.id])}>
                {t('delete.ok')}
              </Button>
            )}
          </Space>
        ) : null,
    },
  ];

  return (
    <>
      <Flex justify="space-between" align="center" gap={8} wrap className={ui.gapBelow}>
        <Space wrap>
          {type === 'inverter' && (
            <>
              <Input.Search
                allowClear
                placeholder={t('products.search')}
                aria-label={t('products.search')}
                maxLength={40}
                onSearch={(v) => {
                  setName(v.trim());
                  setPage((p) => ({ ...p, page: 1 }));
                }}
                className={css.wideFilter}
              />
              <Select
                allowClear
                aria-label={t('field.inverterType')}
                placeholder={t('products.allTypes')}
                value={typeFilter}
                onChange={(v) => {
                  setTypeFilter(v);
                  setPage((p) => ({ ...p, page: 1 }));
                }}
                className={css.typeFilter}
                options={(types.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
              />
            </>
          )}
        </Space>
        {mayEdit && (
          <Space wrap>
            {type === 'inverter' && selected.length > 0 && (
              <Button danger icon={<DeleteOutlined />} onClick={() => remove(selected)}>
                {t('delete.selected', { count: selected.length })}
              </Button>
            )}
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="product-add">
              {t('products.add')}
            </Button>
          </Space>
        )}
      </Flex>
      {list.isError && !list.data ? (
        <PageError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <ListTable<ProductRow>
          fill
          aria-label={t('tabs.products')}
          rowKey="id"
          columns={columns}
          dataSource={rows}
          loading={list.isPending || list.isFetching}
          locale={{ emptyText: t('products.empty') }}
          rowSelection={
            mayEdit && type === 'inverter'
              ? {
                  selectedRowKeys: selected,
                  onChange: (keys) => setSelected(keys as number[]),
                  getCheckboxProps: (row) => ({ disabled: row.firmware > 0 }),
                  columnWidth: 40,
                }
              : undefined
          }
          pagination={
            type === 'inverter'
              ? {
                  current: page.page,
                  pageSize: page.size,
                  total: inverterList.data?.total ?? 0,
                  showTotal: (total) => t('total', { count: total }),
                  onChange: (p, size) => setPage({ page: size !== page.size ? 1 : p, size }),
                }
              : false
          }
          data-testid="products-table"
        />
      )}
      {editing && (
        <ProductDialog
          type={type}
          product={editing === 'new' ? null : editing}
          types={types.data ?? []}
          onClose={() => setEditing(null)}
          onDone={() => void refresh()}
        />
      )}
    </>
  );
}

function ProductDialog({
  type,
  product,
  types,
  onClose,
  onDone,
}: {
  type: FirmwareType;
  product: ProductRow | null;
  types: { id: number; name: string }[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('firmware');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const v = await form.validateFields();
    const body = {
      name: v.name.trim(),
      epn: v.epn?.trim() || null,
      brand: v.brand?.trim() || null,
      hardwareVersions: [...new Set((v.hardwareVersions ?? []).map((h) => h.trim()).filter(Boolean))],
    };
    setSaving(true);
    try {
      if (type === 'gateway') await call(api.saveGatewayProduct, { body: { ...body, ...(product ? { id: product.id } : {}) } });
      else if (product)
        await call(api.editInverterProduct, { params: { id: product.id }, body: { ...body, inverterTypeId: v.inverterTypeId! } });
      else await call(api.addInverterProduct, { body: { ...body, inverterTypeId: v.inverterTypeId! } });
      message.success(t('common:saved'));
      onDone();
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.productExists)
        form.setFields([{ name: 'name', errors: [error.message] }]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={product ? t('products.editTitle', { name: product.name }) : t(`products.addTitle.${type}`)}
      okText={t('common:save')}
      cancelText={t('common:cancel')}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={
          product
            ? {
                name: product.name,
                epn: product.epn ?? undefined,
                brand: product.brand ?? undefined,
                inverterTypeId: product.inverterTypeId ?? undefined,
                hardwareVersions: product.hardwareVersions,
              }
            : {}
        }
        data-testid="product-form"
      >
        <Form.Item
          name="name"
          label={t('field.productName')}
          rules={[{ required: true, whitespace: true, message: t('products.nameRequired') }, { max: api.firmwareRules.textMax }]}
        >
          <Input maxLength={api.firmwareRules.textMax} data-testid="product-name" />
        </Form.Item>
        {type === 'inverter' && (
          <Form.Item
            name="inverterTypeId"
            label={t('field.inverterType')}
            rules={[{ required: true, message: t('products.typeRequired') }]}
          >
            <Select
              options={types.map((x) => ({ value: x.id, label: x.name }))}
              notFoundContent={t('types.empty')}
              data-testid="product-type"
            />
          </Form.Item>
        )}
        <Form.Item name="epn" label={t('field.epn')}>
          <Input maxLength={api.firmwareRules.textMax} />
        </Form.Item>
        <Form.Item name="brand" label={t('field.brand')}>
          <Input maxLength={api.firmwareRules.textMax} />
        </Form.Item>
        <Form.Item name="hardwareVersions" label={t('field.hardwareVersions')} extra={t('products.hardwareHint')}>
          <Select mode="tags" tokenSeparators={[',', ' ']} open={false} maxCount={50} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
