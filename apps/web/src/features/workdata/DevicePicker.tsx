/**
 * Plant → device: the plant picker of the events page, then the plant's devices the caller may
 * list, grouped by type. A device chosen elsewhere (an event's link) shows even without a plant.
 */
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { PlantSelect } from '../../components/PlantSelect.tsx';
import styles from './workdata.module.css';
import { type DeviceKind, type DeviceOption, usePlantDevices } from './workdataQueries.ts';

const kindOrder: DeviceKind[] = ['inverter', 'battery', 'meter', 'weather'];

export function DevicePicker({
  plantId,
  sn,
  current,
  onPlant,
  onDevice,
}: {
  plantId: number | undefined;
  sn: string | undefined;
  /** What the server says about the chosen device (shown when the plant's list lacks it). */
  current: DeviceOption | undefined;
  onPlant: (plantId: number | undefined) => void;
  onDevice: (sn: string | undefined) => void;
}) {
  const { t } = useTranslation('workdata');
  const { devices, loading } = usePlantDevices(plantId);
  const label = (d: DeviceOption) => (d.alias ? `${d.alias} · ${d.sn}` : d.sn);
  const list = current && !devices.some((d) => d.sn === current.sn) ? [current, ...devices] : devices;
  const options = kindOrder
    .map((kind) => ({
      label: t(`kinds.${kind}`),
      title: kind,
      options: list.filter((d) => d.kind === kind).map((d) => ({ value: d.sn, label: label(d) })),
    }))
    .filter((g) => g.options.length > 0);

  return (
    <>
      <PlantSelect
        value={plantId}
        onChange={onPlant}
        placeholder={t('pick.choosePlant')}
        testId="workdata-plant"
        width={230}
        allowClear={false}
      />
      <Select<string>
        value={sn}
        onChange={(v) => onDevice(v)}
        options={options}
        loading={loading}
        showSearch={{ optionFilterProp: 'label' }}
        placeholder={t('pick.chooseDevice')}
        aria-label={t('pick.device')}
        notFoundContent={plantId !== undefined && !loading ? t('pick.noDevices') : null}
        className={styles.device}
        data-testid="workdata-device"
      />
    </>
  );
}
