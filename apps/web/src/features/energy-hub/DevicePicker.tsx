/**
 * A plant of the caller's and its storage inverters, to enrol: the plant picked from the ones the
 * caller may operate, each of its devices with a battery with what the portal knows of it
 * (manufacturer, model, the capacities, editable and required above zero), chosen by default
 * unless already in an enrolment; a device that cannot take part (its registers cannot force its
 * battery) is shown with the reason and cannot be chosen; only plants with a storage inverter are
 * offered. Used by the enrolment form and by "Add devices" of an enrolment.
 */
import { Alert, Checkbox, Form, Select, Table } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../api/hooks.ts';
import { NumberInput } from '../../components/NumberInput.tsx';
import { type StationDevice, useStationDevices, useStations } from './queries.ts';

export type DeviceChoice = StationDevice & { chosen: boolean };

/** The picker's state: the plant and the devices with their choice and edited capacities. */
export function useDeviceChoices() {
  const profile = useProfile();
  const stations = useStations(profile.data?.id ?? null);
  const [stationId, setStationId] = useState<number | null>(null);
  const stationDevices = useStationDevices(stationId);
  const [devices, setDevices] = useState<DeviceChoice[]>([]);
  // Only plants with a storage inverter to enrol are offered.
  const plants = useMemo(() => (stations.data ?? []).filter((s) => s.storageDevices > 0), [stations.data]);
  useEffect(() => {
    if (plants.length > 0 && stationId === null) setStationId(plants[0]!.id);
  }, [plants, stationId]);
  useEffect(() => {
    setDevices((stationDevices.data ?? []).map((d) => ({ ...d, chosen: !d.enrolled && !d.cannotTakePart })));
  }, [stationDevices.data]);
  const update = useCallback(
    (sn: string, change: Partial<DeviceChoice>) => setDevices((all) => all.map((d) => (d.sn === sn ? { ...d, ...change } : d))),
    [],
  );
  /** The chosen devices as the enrolment calls take them. */
  const chosen = () =>
    devices
      .filter((d) => d.chosen && !d.enrolled && !d.cannotTakePart)
      .map((d) => ({
        sn: d.sn,
        manufacturer: d.manufacturer,
        model: d.model,
        ...(d.installDate ? { installDate: d.installDate } : {}),
        chargeCapacity: d.chargeCapacity ?? 0,
        dischargeCapacity: d.dischargeCapacity ?? 0,
        storageCapacity: d.storageCapacity ?? 0,
      }));
  /** The first chosen device without its three capacities (each above zero), or null. */
  const incomplete = () =>
    devices.find(
      (d) =>
        d.chosen &&
        !d.enrolled &&
        [d.chargeCapacity, d.dischargeCapacity, d.storageCapacity].some((c) => c === null || c === undefined || c <= 0),
    )?.sn ?? null;
  return { stations, plants, stationId, setStationId, stationDevices, devices, update, chosen, incomplete };
}

export function DevicePicker({ picker, testId }: { picker: ReturnType<typeof useDeviceChoices>; testId: string }) {
  const { t } = useTranslation('energyHub');
  const { stations, plants, stationId, setStationId, stationDevices, devices, update } = picker;
  const columns = useMemo(
    () => [
      {
        title: '',
        key: 'chosen',
        width: 40,
        render: (_: unknown, d: DeviceChoice) => (
          <Checkbox
            aria-label={d.sn}
            checked={d.chosen}
            disabled={d.enrolled || !!d.cannotTakePart}
            onChange={(e) => update(d.sn, { chosen: e.target.checked })}
          />
        ),
      },
      {
        title: 'SN',
        dataIndex: 'sn',
        key: 'sn',
        render: (sn: string, d: DeviceChoice) =>
          d.cannotTakePart ? (
            <span data-testid={`cannot-${sn}`}>
              {sn} ({t(`form.cannotTakePart.${d.cannotTakePart}`)})
            </span>
          ) : d.enrolled ? (
            `${sn} (${t('form.enrolled')})`
          ) : (
            sn
          ),
      },
      { title: t('form.model'), dataIndex: 'model', key: 'model' },
      ...(['chargeCapacity', 'dischargeCapacity', 'storageCapacity'] as const).map((k) => ({
        title: t(`form.${k}`),
        key: k,
        width: 120,
        render: (_: unknown, d: DeviceChoice) => (
          <NumberInput
            aria-label={`${d.sn} ${t(`form.${k}`)}`}
            min={0}
            max={10000}
            maxDecimals={2}
            value={d[k] ?? undefined}
            disabled={!d.chosen}
            onChange={(v) => update(d.sn, { [k]: typeof v === 'number' ? v : null })}
          />
        ),
      })),
    ],
    [t, update],
  );
  if (!stations.isPending && plants.length === 0) return <Alert type="info" showIcon message={t('form.noStoragePlants')} />;
  return (
    <>
      <Form.Item label={t('form.plant')}>
        <Select
          data-testid={testId}
          value={stationId ?? undefined}
          loading={stations.isPending}
          onChange={(v: number) => setStationId(v)}
          options={plants.map((s) => ({ value: s.id, label: `${s.name} (${s.storageDevices})` }))}
        />
      </Form.Item>
      {stationId !== null && !stationDevices.isPending && devices.length === 0 ? (
        <Alert type="info" showIcon message={t('form.noStorage')} />
      ) : (
        <Table<DeviceChoice>
          size="small"
          rowKey="sn"
          pagination={false}
          loading={stationDevices.isFetching}
          columns={columns}
          dataSource={devices}
        />
      )}
    </>
  );
}
