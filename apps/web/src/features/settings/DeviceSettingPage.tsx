/**
 * /device/setting and /plants/device/setting: remote settings. The device comes from the address
 * (`?sn=` one inverter, `?sns=a,b,…` a batch from the inverter list's selection) or is picked: a
 * plant, then one of its inverters (within a plant, `?plantId=` fixes the plant). The choice is
 * kept in the address, so a link or a reload opens the same device.
 */
import { limits } from '@sunfleet/contracts';
import { Card, Flex, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageEmpty } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { PlantSelect } from '../../components/PlantSelect.tsx';
import { BatchSettings } from './BatchSettings.tsx';
import { DeviceSettings } from './DeviceSettings.tsx';
import styles from './settings.module.css';
import { useInverter, usePlantInverters } from './settingsQueries.ts';

const SN = /^[A-Za-z0-9_-]{1,32}$/;

/** The SNs of `?sns=` (valid, distinct, at most a batch's limit). */
export function batchSns(raw: string | null): string[] {
  if (!raw) return [];
  return [...new Set(raw.split(',').map((s) => s.trim()))].filter((s) => SN.test(s)).slice(0, limits.settingBatchDevices);
}

export function DeviceSettingPage({ withinPlant }: { withinPlant: boolean }) {
  const { t } = useTranslation('settings');
  const [search, setSearch] = useSearchParams();
  const sns = batchSns(search.get('sns'));
  const rawSn = search.get('sn');
  const sn = rawSn && SN.test(rawSn) ? rawSn : undefined;
  const plantParam = Number(search.get('plantId'));
  const plantFromAddress = Number.isInteger(plantParam) && plantParam > 0 ? plantParam : undefined;
  const inverter = useInverter(sn);
  const plantId = plantFromAddress ?? inverter.data?.plant?.id;
  const inverters = usePlantInverters(plantId);

  const choose = (next: { plantId?: number; sn?: string }) => {
    const params = new URLSearchParams();
    if (next.plantId !== undefined) params.set('plantId', String(next.plantId));
    if (next.sn) params.set('sn', next.sn);
    setSearch(params);
  };

  const batch = sns.length > 1;
  return (
    <Flex vertical gap={16} data-testid="device-setting-page">
      <Card>
        <Flex justify="space-between" align="center" gap={16} wrap>
          <PageTitle>{batch ? t('batch.title') : t('title')}</PageTitle>
          {!batch && (
            <Flex gap={8} wrap>
              {(!withinPlant || plantFromAddress === undefined) && (
                <PlantSelect
                  value={plantId}
                  onChange={(id) => choose({ plantId: id })}
                  placeholder={t('pick.plant')}
                  testId="setting-plant"
                  width={240}
                />
              )}
              <Select<string>
                showSearch={{ optionFilterProp: 'label' }}
                value={sn}
                placeholder={t('pick.inverter')}
                aria-label={t('pick.inverter')}
                disabled={plantId === undefined}
                loading={inverters.isFetching}
                options={(inverters.data?.list ?? []).map((d) => ({
                  value: d.sn,
                  label: d.alias ? `${d.alias} (${d.sn})` : d.sn,
                }))}
                onChange={(value) => choose({ plantId, sn: value })}
                notFoundContent={inverters.isFetching ? undefined : t('pick.noInverters')}
                className={styles.picker}
                data-testid="setting-inverter"
              />
            </Flex>
          )}
        </Flex>
      </Card>
      {batch ? (
        <BatchSettings sns={sns} />
      ) : sn ? (
        <DeviceSettings key={sn} sn={sn} />
      ) : (
        <Card>
          <PageEmpty description={t(plantId === undefined ? 'pick.plantFirst' : 'pick.inverterFirst')} />
        </Card>
      )}
    </Flex>
  );
}

export default function DeviceSettingRoute() {
  return <DeviceSettingPage withinPlant={false} />;
}
