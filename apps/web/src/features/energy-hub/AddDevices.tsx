/**
 * "Add devices" of an enrolment: a plant's storage inverters not yet in an enrolment, with their
 * capacities, added in one call; the server's refusals (a device already used, the same SN twice,
 * …) show as its message in the dialog.
 */
import { Alert, Form, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { DevicePicker, useDeviceChoices } from './DevicePicker.tsx';
import css from './energyHub.module.css';
import { type Enrollment, useAddDevices, useRefresh } from './queries.ts';

export function AddDevices({ enrollment, onClose }: { enrollment: Enrollment; onClose: () => void }) {
  const { t } = useTranslation('energyHub');
  const picker = useDeviceChoices();
  const add = useAddDevices();
  const refresh = useRefresh();
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    const devices = picker.chosen();
    if (devices.length === 0) return setError(t('addDevicesNone'));
    const incomplete = picker.incomplete();
    if (incomplete) return setError(t('form.capacityMissing', { sn: incomplete }));
    setError(null);
    try {
      await add.mutateAsync({ params: { id: enrollment.id }, body: { devices } });
      await refresh();
      onClose();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };
  return (
    <Modal
      open
      width={800}
      title={t('addDevicesTitle', { programme: enrollment.programName })}
      okText={t('addDevicesSubmit')}
      onOk={() => void submit()}
      onCancel={onClose}
      okButtonProps={{ loading: add.isPending, ...{ 'data-testid': 'dr-add-devices-submit' } }}
      destroyOnHidden
    >
      <Form layout="vertical" data-testid="dr-add-devices">
        <DevicePicker picker={picker} testId="dr-add-devices-plant" />
        {error && <Alert type="error" showIcon message={error} data-testid="dr-add-devices-error" className={css.gapAbove} />}
      </Form>
    </Modal>
  );
}
