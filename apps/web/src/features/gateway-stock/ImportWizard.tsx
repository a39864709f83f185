/**
 * The import wizard: upload an .xlsx (the template is one click away) → the server's per-row
 * check → choose what to write (only the valid rows, or all or nothing) → write → the result
 * with the claim keys and device secrets of what was made, shown once. The file stays in the
 * browser between the steps and is sent again to write (the server checks it again then).
 */

import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { gatewayStockApi } from '@sunfleet/contracts';
import { Alert, App, Button, Flex, Form, Modal, Steps, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { useServerLanguage } from '../../api/hooks.ts';
import { CustomerSelect } from '../../components/CustomerSelect.tsx';
import { downloadFile } from '../../components/download.ts';
import { type Mode, ModeChoice } from './fields.tsx';
import { ProblemTable, type StockReport } from './ProblemTable.tsx';
import { SecretsCard } from './SecretsCard.tsx';
import type { MadeGateway } from './secrets.ts';
import css from './stock.module.css';
import { useInvalidateStock } from './stockQueries.ts';

const { STOCK_IMPORT_MAX_ROWS, STOCK_IMPORT_MAX_BYTES } = gatewayStockApi;
type Step = 0 | 1 | 2 | 3;

interface Outcome {
  written: number;
  refused: number;
  made: MadeGateway[];
}

export function ImportWizard({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('gatewayStock');
  const { message, modal } = App.useApp();
  const lan = useServerLanguage();
  const invalidate = useInvalidateStock();
  const [step, setStep] = useState<Step>(0);
  const [file, setFile] = useState<File | null>(null);
  const [customerId, setCustomerId] = useState<number | null>(null);
  const [report, setReport] = useState<StockReport | null>(null);
  const [mode, setMode] = useState<Mode>('valid');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const reset = () => {
    setStep(0);
    setFile(null);
    setReport(null);
    setMode('valid');
    setOutcome(null);
  };
  const close = () => {
    const finish = () => {
      reset();
      setCustomerId(null);
      onClose();
    };
    if (!outcome || outcome.made.length === 0) return finish();
    modal.confirm({
      title: t('secrets.confirmClose'),
      content: t('secrets.confirmCloseText'),
      okText: t('secrets.closeAnyway'),
      okButtonProps: { danger: true, 'data-testid': 'stock-secrets-close-ok' },
      cancelText: t('common:cancel'),
      onOk: finish,
    });
  };

  const fields = () => ({ file: file!, ...(customerId ? { customerId: String(customerId) } : {}) });

  const check = async () => {
    if (!file) return;
    setBusy(true);
    try {
      setReport(await call(gatewayStockApi.importCheck, { body: fields() }));
      setStep(1);
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) message.error(err.message);
    } finally {
      setBusy(false);
    }
  };

  const write = async () => {
    setBusy(true);
    try {
      const result = await call(gatewayStockApi.importBatch, { body: { ...fields(), mode } });
      setReport(result.report);
      const refused = result.written === 0 && result.report.problems.length > 0 && mode === 'all';
      setOutcome({
        written: result.written,
        refused: refused ? result.report.rows - result.report.valid : 0,
        made: result.gateways,
      });
      setStep(3);
      if (result.written > 0) await invalidate();
    } catch (err) {
      if (err instanceof ApiError && err.tolerated) message.error(err.message);
    } finally {
      setBusy(false);
    }
  };

  const template = async () => {
    try {
      await downloadFile(gatewayStockApi.importTemplate, { query: { lan } }, `gateway-import-template-${lan}.xlsx`);
    } catch {
      message.error(t('actions.downloadFailed'));
    }
  };

  const footer = [
    step === 1 || step === 2 ? (
      <Button key="back" onClick={() => setStep((step - 1) as Step)}>
        {t('import.back')}
      </Button>
    ) : null,
    step === 0 ? (
      <Button key="check" type="primary" disabled={!file} loading={busy} onClick={check} data-testid="stock-import-check">
        {busy ? t('import.checking') : t('import.check')}
      </Button>
    ) : null,
    step === 1 ? (
      <Button
        key="next"
        type="primary"
        disabled={(report?.valid ?? 0) === 0}
        onClick={() => setStep(2)}
        data-testid="stock-import-next"
      >
        {t('import.next')}
      </Button>
    ) : null,
    step === 2 ? (
      <Button key="write" type="primary" loading={busy} onClick={write} data-testid="stock-import-write">
        {busy ? t('import.writing') : t('import.write')}
      </Button>
    ) : null,
    step === 3 ? (
      <Button key="again" onClick={reset} data-testid="stock-import-again">
        {t('import.again')}
      </Button>
    ) : null,
    step === 3 ? (
      <Button key="close" type="primary" onClick={close} data-testid="stock-import-close">
        {t('import.close')}
      </Button>
    ) : null,
  ].filter(Boolean);

  return (
    <Modal open={open} title={t('import.title')} onCancel={close} width={900} footer={footer} destroyOnHidden>
      <Steps
        current={step}
        size="small"
        items={(['upload', 'check', 'write', 'result'] as const).map((s) => ({ title: t(`import.steps.${s}`) }))}
        className={css.steps}
      />
      {step === 0 && (
        <Flex vertical gap={12} data-testid="stock-import-upload">
          <Flex gap={12} align="center" wrap>
            <Button icon={<DownloadOutlined />} onClick={template} data-testid="stock-import-template">
              {t('import.template')}
            </Button>
            <Typography.Text type="secondary">{t('import.templateHint')}</Typography.Text>
          </Flex>
          <Upload.Dragger
            accept=".xlsx"
            maxCount={1}
            fileList={file ? [{ uid: 'file', name: file.name, status: 'done' }] : []}
            beforeUpload={(f) => {
              setFile(f);
              return false;
            }}
            onRemove={() => setFile(null)}
            data-testid="stock-import-file"
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{t('import.drop')}</p>
            <p className="ant-upload-hint">
              {t('import.dropHint', { rows: STOCK_IMPORT_MAX_ROWS.toLocaleString(), mb: STOCK_IMPORT_MAX_BYTES / 2 ** 20 })}
            </p>
          </Upload.Dragger>
          <Form layout="vertical">
            <Form.Item label={t('import.defaultCustomer')} className={css.narrow}>
              <CustomerSelect
                className={css.full}
                value={customerId}
                onChange={setCustomerId}
                testId="stock-import-customer"
                ariaLabel={t('import.defaultCustomer')}
              />
            </Form.Item>
          </Form>
        </Flex>
      )}
      {step === 1 && report && <ProblemTable report={report} />}
      {step === 2 && report && (
        <Flex vertical gap={12} data-testid="stock-import-mode">
          <Typography.Text>
            {t('import.summary', { valid: report.valid, rows: report.rows, bad: report.rows - report.valid })}
          </Typography.Text>
          <Form layout="vertical">
            <Form.Item label={t('mode.label')}>
              <ModeChoice value={mode} onChange={setMode} />
            </Form.Item>
          </Form>
        </Flex>
      )}
      {step === 3 && outcome && (
        <Flex vertical gap={12} data-testid="stock-import-result">
          {outcome.refused > 0 ? (
            <Alert
              type="error"
              showIcon
              message={t('import.refused', { count: outcome.refused })}
              data-testid="stock-import-refused"
            />
          ) : (
            <Alert
              type="success"
              showIcon
              message={t('import.written', { count: outcome.written })}
              data-testid="stock-import-written"
            />
          )}
          {outcome.refused > 0 && report && <ProblemTable report={report} />}
          <SecretsCard made={outcome.made} />
        </Flex>
      )}
    </Modal>
  );
}
