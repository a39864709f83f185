/**
 * Upload a firmware image: its product, version (higher than every version of that product),
 * hardware version, compatible software, upgrade mode, change log and the .bin or .hex file (at
 * most 1.5 MiB, a name of at most 40 letters, digits, - _ or .). The file and version are checked
 * here with the server's own rule (`firmwareUploadProblem`) before anything is sent; the server's
 * refusals (4000 a taken name or version, 4001/4002 not the latest) show in the dialog.
 */
import { InboxOutlined } from '@ant-design/icons';
import { firmwareApi as api } from '@sunfleet/contracts';
import { Alert, App, AutoComplete, Form, Input, Modal, Radio, Select, Upload } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client.ts';
import { useApiQuery } from '../../api/hooks.ts';
import { formatKib } from './criteria.ts';
import { type FirmwareType, firmwareCalls } from './firmwareQueries.ts';

interface Values {
  productId?: number;
  version?: string;
  hardwareVersion?: string;
  compatibleSoftware?: string;
  upgradeMode: 'IAP' | 'ISP';
  changeLog?: string;
}

const { firmwareRules, firmwareUploadProblem } = api;

export function UploadDialog({ type, onClose, onDone }: { type: FirmwareType; onClose: () => void; onDone: () => void }) {
  const { t, i18n } = useTranslation('firmware');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const productId = Form.useWatch('productId', form);

  const products = useApiQuery(api.products, { query: { type } });
  const versions = useApiQuery(
    api.firmwareVersions,
    { query: { type, productId: productId ?? 0, size: 100 } },
    { enabled: !!productId },
  );
  const hardware = useApiQuery(api.hardwareVersions, { query: { productId: productId ?? 0 } }, { enabled: !!productId });
  const software = useApiQuery(api.gatewaySoftware, { query: {} }, { enabled: type === 'gateway' });
  const known = useMemo(() => (versions.data?.infos ?? []).map((v) => v.version), [versions.data]);
  const latest = known[0];

  const fileProblem = (f: File | null) => {
    const problem = firmwareUploadProblem(f && { name: f.name, size: f.size }, 'x');
    return problem && problem !== 'version' && problem !== 'notHigher' ? t(`problem.${problem}`, firmwareRules) : null;
  };

  const submit = async () => {
    setRefusal(null);
    const values = await form.validateFields();
    const problem = fileProblem(file);
    setFileError(problem);
    if (problem || !file || !values.productId || !values.version) return;
    setSending(true);
    try {
      const saved = await call(firmwareCalls[type].add, {
        body: {
          productId: values.productId,
          version: values.version.trim(),
          hardwareVersion: values.hardwareVersion?.trim() || undefined,
          compatibleSoftware: values.compatibleSoftware?.trim() || undefined,
          upgradeMode: values.upgradeMode,
          changeLog: values.changeLog?.trim() || undefined,
          file,
        },
      });
      message.success(t('upload.done', { file: saved.fileName, version: saved.version }));
      onDone();
      onClose();
    } catch (error) {
      if (error instanceof ApiError && error.tolerated) setRefusal(error.message);
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open
      title={t(`upload.title.${type}`)}
      okText={t('upload.send')}
      cancelText={t('common:cancel')}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      confirmLoading={sending}
      destroyOnHidden
      width={560}
      okButtonProps={{ 'data-testid': 'firmware-upload-send' }}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ upgradeMode: 'IAP' }}
        requiredMark
        data-testid="firmware-upload-form"
      >
        <Form.Item
          name="productId"
          label={t('field.productName')}
          rules={[{ required: true, message: t('upload.productRequired') }]}
        >
          <Select
            showSearch
            optionFilterProp="label"
            loading={products.isPending}
            placeholder={t('upload.productPlaceholder')}
            notFoundContent={t(`upload.noProducts.${type}`)}
            options={(products.data ?? []).map((p) => ({
              value: p.id,
              label: [p.name, p.epn, p.brand].filter(Boolean).join(' · '),
            }))}
            data-testid="firmware-upload-product"
          />
        </Form.Item>
        <Form.Item
          name="version"
          label={t('field.version')}
          extra={latest ? t('upload.latest', { version: latest }) : productId ? t('upload.first') : undefined}
          rules={[
            { required: true, message: t('upload.versionRequired') },
            {
              validator: async (_, value?: string) => {
                const v = (value ?? '').trim();
                if (!v) return;
                const problem = firmwareUploadProblem({ name: 'x.bin', size: 1 }, v, known);
                if (problem === 'version') throw new Error(t('problem.version', firmwareRules));
                if (problem === 'notHigher') throw new Error(t('problem.notHigher', { version: latest }));
              },
            },
          ]}
        >
          <Input maxLength={firmwareRules.versionMax} autoComplete="off" data-testid="firmware-upload-version" />
        </Form.Item>
        <Form.Item name="hardwareVersion" label={t('field.hardwareVersion')}>
          <AutoComplete
            options={(hardware.data ?? []).map((v) => ({ value: v }))}
            maxLength={firmwareRules.textMax}
            disabled={!productId}
          />
        </Form.Item>
        <Form.Item name="compatibleSoftware" label={t('field.compatibleSoftware')}>
          <AutoComplete options={(software.data ?? []).map((v) => ({ value: v }))} maxLength={firmwareRules.textMax} />
        </Form.Item>
        <Form.Item name="upgradeMode" label={t('field.upgradeMode')}>
          <Radio.Group
            options={api.upgradeModes.map((m) => ({ value: m, label: `${m} · ${t(`mode.${m}`)}` }))}
            optionType="button"
          />
        </Form.Item>
        <Form.Item name="changeLog" label={t('field.changeLog')}>
          <Input.TextArea rows={3} maxLength={firmwareRules.changeLogMax} showCount />
        </Form.Item>
        <Form.Item
          label={t('field.file')}
          required
          validateStatus={fileError ? 'error' : undefined}
          help={
            fileError ??
            t('upload.fileRule', { ...firmwareRules, bytes: new Intl.NumberFormat(i18n.language).format(firmwareRules.maxBytes) })
          }
        >
          <Upload.Dragger
            accept={firmwareRules.extensions.join(',')}
            maxCount={1}
            fileList={
              file ? [{ uid: 'file', name: `${file.name} (${formatKib(file.size, i18n.language)})`, status: 'done' }] : []
            }
            beforeUpload={(f) => {
              setFile(f);
              setFileError(fileProblem(f));
              return false;
            }}
            onRemove={() => {
              setFile(null);
              setFileError(null);
            }}
            data-testid="firmware-upload-file"
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p>{t('upload.drop')}</p>
          </Upload.Dragger>
        </Form.Item>
        {refusal && <Alert type="error" showIcon message={refusal} data-testid="firmware-upload-refusal" />}
      </Form>
    </Modal>
  );
}
