/**
 * One image type's firmware list: filters in the address (product, version, enabled), the
 * server-paged table with each image's enable switch, detail and delete (confirmed, naming the
 * file), a selection for deleting several (confirmed, naming the count), and the upload dialog.
 */
import { CloudUploadOutlined, DeleteOutlined, ReloadOutlined } from '@ant-design/icons';
import { firmwareApi as api } from '@sunfleet/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { App, Button, Flex, Input, Select, Space, Switch, type TableColumnsType, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { useApiQuery } from '../../api/hooks.ts';
import { ListTable, listPagination } from '../../components/ListTable.tsx';
import { PageError } from '../../components/PageState.tsx';
import { Can, useMayCall } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import { useAddressCriteria } from '../../components/useAddressCriteria.ts';
import { formatDateTime } from '../../lib/format.ts';
import { criteriaSearch, formatKib, isFiltered, pageSizes, parseCriteria, serverQuery } from './criteria.ts';
import { FirmwareDrawer } from './FirmwareDrawer.tsx';
import css from './firmware.module.css';
import { type FirmwareRow, type FirmwareType, firmwareCalls, useFirmwareRefresh } from './firmwareQueries.ts';
import { UploadDialog } from './UploadDialog.tsx';

export function FirmwareList({ type }: { type: FirmwareType }) {
  const { t, i18n } = useTranslation('firmware');
  const { message, modal } = App.useApp();
  const calls = firmwareCalls[type];
  const mayCall = useMayCall();
  const mayEdit = mayCall(calls.edit);
  const refresh = useFirmwareRefresh();
  const { criteria, update, onPage, reset } = useAddressCriteria(parseCriteria, criteriaSearch);
  const [selected, setSelected] = useState<number[]>([]);
  const [uploading, setUploading] = useState(false);
  const [open, setOpen] = useState<FirmwareRow | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const list = useApiQuery(calls.list, { query: serverQuery(criteria) }, { placeholderData: keepPreviousData });

  const setEnabled = async (row: FirmwareRow, enabled: boolean) => {
    setBusy(row.id);
    try {
      await call(api.changeFirmwareEnable, { params: { id: row.id }, query: { enable: enabled ? '1' : '0' } });
      message.success(enabled ? t('enabledDone', { file: row.fileName }) : t('disabledDone', { file: row.fileName }));
      await refresh();
    } catch {
      // The client has shown why.
    } finally {
      setBusy(null);
    }
  };

  const remove = (rows: FirmwareRow[]) =>
    modal.confirm({
      title:
        rows.length === 1 ? t('delete.oneTitle', { file: rows[0]!.fileName }) : t('delete.manyTitle', { count: rows.length }),
      content: t('delete.content'),
      okText: t('delete.ok'),
      okButtonProps: { danger: true },
      cancelText: t('common:cancel'),
      onOk: async () => {
        try {
          if (rows.length === 1) await call(api.deleteFirmware, { params: { id: rows[0]!.id } });
          else await call(api.batchDeleteFirmware, { query: { ids: rows.map((r) => r.id) } });
          message.success(t('delete.done', { count: rows.length }));
          setSelected([]);
          await refresh();
        } catch (error) {
          if (error instanceof ApiError && error.tolerated) message.error(error.message);
        }
      },
    });

  const columns: TableColumnsType<FirmwareRow> = [
    { title: t('field.productName'), dataIndex: 'productName', width: 140 },
    { title: t('field.version'), dataIndex: 'version', width: 110 },
    { title: t('field.fileName'), dataIndex: 'fileName', width: 190 },
    { title: t('field.size'), dataIndex: 'size', width: 110, align: 'right', render: (v: number) => formatKib(v, i18n.language) },
    { title: t('field.hardwareVersion'), dataIndex: 'hardwareVersion', width: 120, render: (v: string | null) => v ?? '--' },
    { title: t('field.upgradeMode'), dataIndex: 'upgradeMode', width: 140, render: (v: string) => <Tag>{v}</Tag> },
    { title: t('field.createdAt'), dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
    {
      title: t('field.enabled'),
      dataIndex: 'enabled',
      width: 100,
      render: (v: boolean, row) => (
        <Switch
          size="small"
          checked={v}
          disabled={!mayEdit}
          loading={busy === row.id}
          aria-label={t('enableOf', { file: row.fileName })}
          onChange={(on) => void setEnabled(row, on)}
          data-testid={`firmware-enable-${row.id}`}
        />
      ),
    },
    {
      title: t('field.actions'),
      key: 'actions',
      fixed: 'right',
      width: 150,
      render: (_: unknown, row) => (
        <Space size={4}>
          <Button type="link" size="small" onClick={() => setOpen(row)} data-testid={`firmware-detail-${row.id}`}>
            {t('detail.open')}
          </Button>
          {mayEdit && (
            <Button type="link" size="small" danger onClick={() => remove([row])} data-testid={`firmware-delete-${row.id}`}>
              {t('delete.ok')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  const rows = list.data?.list ?? [];
  return (
    <>
      <Flex justify="space-between" align="center" gap={8} wrap className={ui.gapBelow}>
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('filter.productName')}
            aria-label={t('filter.productName')}
            defaultValue={criteria.productName}
            maxLength={40}
            onSearch={(v) => update({ productName: v.trim() })}
            className={css.wideFilter}
            data-testid="firmware-filter-product"
          />
          <Input.Search
            allowClear
            placeholder={t('filter.version')}
            aria-label={t('filter.version')}
            defaultValue={criteria.version}
            maxLength={40}
            onSearch={(v) => update({ version: v.trim() })}
            className={css.narrowFilter}
          />
          <Select
            aria-label={t('filter.enabled')}
            value={criteria.enabled === undefined ? 'all' : criteria.enabled ? '1' : '0'}
            onChange={(v) => update({ enabled: v === 'all' ? undefined : v === '1' })}
            className={css.stateFilter}
            options={[
              { value: 'all', label: t('filter.all') },
              { value: '1', label: t('filter.enabledOnly') },
              { value: '0', label: t('filter.disabledOnly') },
            ]}
          />
          {isFiltered(criteria) && (
            <Button icon={<ReloadOutlined />} onClick={reset}>
              {t('filter.reset')}
            </Button>
          )}
        </Space>
        <Space wrap>
          <Can call={api.batchDeleteFirmware}>
            {mayEdit && selected.length > 0 && (
              <Button
                danger
                icon={<DeleteOutlined />}
                onClick={() => remove(rows.filter((r) => selected.includes(r.id)))}
                data-testid="firmware-batch-delete"
              >
                {t('delete.selected', { count: selected.length })}
              </Button>
            )}
          </Can>
          <Can call={calls.add}>
            <Tooltip title={t('upload.hint')}>
              <Button
                type="primary"
                icon={<CloudUploadOutlined />}
                onClick={() => setUploading(true)}
                data-testid="firmware-upload"
              >
                {t('upload.open')}
              </Button>
            </Tooltip>
          </Can>
        </Space>
      </Flex>

      {list.isError && !list.data ? (
        <PageError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <ListTable<FirmwareRow>
          fill
          aria-label={t(`title.${type}`)}
          rowKey="id"
          columns={columns}
          dataSource={rows}
          loading={list.isPending || list.isFetching}
          locale={{ emptyText: isFiltered(criteria) ? t('emptyFiltered') : t('empty') }}
          rowSelection={
            mayEdit
              ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]), columnWidth: 40 }
              : undefined
          }
          pagination={listPagination({
            ...criteria,
            total: list.data?.total ?? 0,
            sizes: pageSizes,
            onPage,
            totalText: (total) => t('total', { count: total }),
          })}
          data-testid="firmware-table"
        />
      )}

      {uploading && <UploadDialog type={type} onClose={() => setUploading(false)} onDone={() => void refresh()} />}
      <FirmwareDrawer type={type} row={open} mayEdit={mayEdit} onClose={() => setOpen(null)} onSaved={(row) => setOpen(row)} />
    </>
  );
}
