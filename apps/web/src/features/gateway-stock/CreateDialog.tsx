/**
 * Create gateways: one (SN, customer, protocol, alias) or a batch typed one per line (SN, or SN,
 * protocol, alias) with a customer for all and the write mode. The batch shows the per-row report;
 * what was made shows its claim keys and device secrets once, and closing asks first.
 */

import { gatewayStockApi } from '@sunfleet/contracts';
import { App, Button, Form, Input, Modal, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { CustomerSelect } from '../../components/CustomerSelect.tsx';
import { SafeInput } from '../../components/SafeInput.tsx';
import ui from '../../components/ui.module.css';
import { aliasRules, type Mode, ModeChoice, ProtocolSelect, snRules } from './fields.tsx';
import { ProblemTable, type StockReport } from './ProblemTable.tsx';
import { SecretsCard } from './SecretsCard.tsx';
import { type MadeGateway, parseBatchLines } from './secrets.ts';
import css from './stock.module.css';
import { useInvalidateStock } from './stockQueries.ts';

const { STOCK_BATCH_MAX } = gatewayStockApi;

interface OneValues {
  sn: string;
  customerId?: number | null;
  protocol?: string | null;
  alias?: string;
}
interface BatchValues {
  lines: string;
  customerId?: number | null;
  mode: Mode;
}

export function CreateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('gatewayStock');
  const { message, modal } = App.useApp();
  const invalidate = useInvalidateStock();
  const [tab, setTab] = useState<'one' | 'batch'>('one');
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<MadeGateway[]>([]);
  const [report, setReport] = useState<StockReport | null>(null);
  const [one] = Form.useForm<OneValues>();
  const [batch] = Form.useForm<BatchValues>();

  const reset = () => {
    setMade([]);
    setReport(null);
    one.resetFields();
    batch.resetFields();
  };
  const close = () => {
    if (made.length === 0) {
      reset();
      onClose();
      return;
    }
    modal.confirm({
      title: t('secrets.confirmClose'),
      content: t('secrets.confirmCloseText'),
      okText: t('secrets.closeAnyway'),
      okButtonProps: { danger: true, 'data-testid': 'stock-secrets-close-ok' },
      cancelText: t('common:cancel'),
      onOk: () => {
        reset();
        onClose();
      },
    });
  };

  const createOne = async (v: OneValues) => {
    setBusy(true);
    try {
      const g = await call(gatewayStockApi.createGateway, {
        body: {
          sn: v.sn.trim(),
          customerId: v.customerId ?? null,
          protocol: v.protocol ?? null,
          alias: v.alias?.trim() || null,
        },
      });
      message.success(t('create.created', { sn: g.sn }));
      setMade([g]);
      await invalidate();
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) message.error(err.message);
    } finally {
      setBusy(false);
    }
  };

  const createBatch = async (v: BatchValues) => {
    setBusy(true);
    try {
      const result = await call(gatewayStockApi.batchCreate, {
        body: { items: parseBatchLines(v.lines), mode: v.mode, ...(v.customerId ? { customerId: v.customerId } : {}) },
      });
      setReport(result.report);
      setMade(result.gateways);
      if (result.written > 0) {
        message.success(t('import.written', { count: result.written }));
        await invalidate();
      }
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) message.error(err.message);
    } finally {
      setBusy(false);
    }
  };

  const done = made.length > 0;
  return (
    <Modal
      open={open}
      title={t('create.title')}
      onCancel={close}
      width={done || report ? 900 : 560}
      destroyOnHidden
      footer={
        done ? (
          <Button type="primary" onClick={close} data-testid="stock-create-close">
            {t('import.close')}
          </Button>
        ) : (
          [
            <Button key="cancel" onClick={close}>
              {t('common:cancel')}
            </Button>,
            <Button
              key="ok"
              type="primary"
              loading={busy}
              onClick={() => (tab === 'one' ? one.submit() : batch.submit())}
              data-testid="stock-create-submit"
            >
              {t('create.submit')}
            </Button>,
          ]
        )
      }
    >
      {done ? (
        <>
          {report && <ProblemTable report={report} />}
          <SecretsCard made={made} />
        </>
      ) : (
        <Tabs
          activeKey={tab}
          onChange={(k) => {
            setTab(k as 'one' | 'batch');
            setReport(null);
          }}
          items={[
            {
              key: 'one',
              label: t('create.one'),
              children: (
                <Form form={one} layout="vertical" onFinish={createOne} data-testid="stock-create-one">
                  <Form.Item name="sn" label={t('create.sn')} extra={t('create.snHint')} rules={snRules(t)}>
                    <SafeInput maxLength={32} data-testid="stock-create-sn" />
                  </Form.Item>
                  <Form.Item name="customerId" label={t('create.customer')} extra={t('create.customerHint')}>
                    <CustomerSelect className={css.full} testId="stock-create-customer" />
                  </Form.Item>
                  <Form.Item name="protocol" label={t('create.protocol')}>
                    <ProtocolSelect testId="stock-create-protocol" />
                  </Form.Item>
                  <Form.Item name="alias" label={t('create.alias')} rules={aliasRules(t)}>
                    <SafeInput data-testid="stock-create-alias" />
                  </Form.Item>
                </Form>
              ),
            },
            {
              key: 'batch',
              label: t('create.batch'),
              children: (
                <>
                  <Form
                    form={batch}
                    layout="vertical"
                    onFinish={createBatch}
                    initialValues={{ mode: 'valid' }}
                    data-testid="stock-create-batch"
                  >
                    <Form.Item
                      name="lines"
                      label={t('create.lines')}
                      extra={t('create.linesHint', { max: STOCK_BATCH_MAX })}
                      rules={[
                        { required: true, whitespace: true, message: t('create.linesRequired') },
                        {
                          validator: async (_, v: string | undefined) =>
                            parseBatchLines(v ?? '').length > STOCK_BATCH_MAX
                              ? Promise.reject(new Error(t('create.linesTooMany', { max: STOCK_BATCH_MAX })))
                              : undefined,
                        },
                      ]}
                    >
                      <Input.TextArea rows={6} className={ui.mono} data-testid="stock-create-lines" />
                    </Form.Item>
                    <Form.Item name="customerId" label={t('create.customer')} extra={t('create.customerHint')}>
                      <CustomerSelect className={css.full} testId="stock-batch-customer" />
                    </Form.Item>
                    <Form.Item name="mode" label={t('mode.label')}>
                      <ModeChoice />
                    </Form.Item>
                  </Form>
                  {report && <ProblemTable report={report} />}
                </>
              ),
            },
          ]}
        />
      )}
    </Modal>
  );
}
