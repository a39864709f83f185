/**
 * The remote settings of one inverter: who it is (plant, SN, alias, status), its supported groups
 * as tabs (each read from the device when opened), and its job history. Write controls show only
 * to a caller who may write the group (granted `inverter.setting`, not a read-only account) and
 * may operate this inverter (the server's right on it: a plant's visitor may not).
 */
import { settingsApi } from '@sunfleet/contracts';
import { Card, Descriptions, Flex, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../components/PageState.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import { stateName } from '../../lib/deviceNames.ts';
import { GroupTab } from './GroupTab.tsx';
import { JobHistory } from './JobHistory.tsx';
import { errorOf, SettingsError } from './SettingsError.tsx';
import styles from './settings.module.css';
import { useInverter, useSupport } from './settingsQueries.ts';

export function DeviceSettings({ sn }: { sn: string }) {
  const { t, i18n } = useTranslation('settings');
  const inverter = useInverter(sn);
  const support = useSupport(sn);
  const mayCall = useMayCall();
  const [tab, setTab] = useState<string | undefined>(undefined);

  if (support.isPending || inverter.isPending) return <PageLoading />;
  if (support.isError) return <SettingsError {...errorOf(support.error)} />;
  if (inverter.isError) return <SettingsError {...errorOf(inverter.error)} />;
  const s = support.data;
  const device = inverter.data;
  const firstWrite = s.family ? settingsApi.settingEndpoints(s.family, s.groups[0] ?? '')?.write : undefined;
  const canWrite = firstWrite !== undefined && mayCall(firstWrite, device.canEdit);

  return (
    <Flex vertical gap={16} data-testid="device-settings" data-can-write={canWrite}>
      <Card size="small">
        <Descriptions
          size="small"
          column={{ xs: 1, md: 2, xl: 4 }}
          items={[
            { key: 'sn', label: t('device.sn'), children: device.sn },
            { key: 'alias', label: t('device.alias'), children: device.alias || '--' },
            { key: 'plant', label: t('device.plant'), children: device.plant?.name ?? '--' },
            {
              key: 'status',
              label: t('device.status'),
              children: <Tag>{stateName(device.state, i18n.language)}</Tag>,
            },
          ]}
        />
        {!canWrite && (
          <Tag className={styles.readOnlyTag} data-testid="settings-read-only">
            {t('readOnly')}
          </Tag>
        )}
      </Card>
      <Card title={t('groupsTitle')}>
        {s.groups.length === 0 ? (
          <SettingsError code={601} />
        ) : (
          <Tabs
            activeKey={tab ?? s.groups[0]}
            onChange={setTab}
            destroyOnHidden
            items={s.groups.map((g) => ({
              key: g,
              label: <span data-testid={`setting-tab-${g}`}>{t(`groups.${g}`, { defaultValue: g })}</span>,
              children: (
                <GroupTab
                  sn={s.sn}
                  family={s.family!}
                  group={g}
                  canWrite={canWrite}
                  definitions={s.definitions.find((d) => d.group === g)?.fields}
                />
              ),
            }))}
          />
        )}
      </Card>
      <JobHistory sn={s.sn} canWrite={canWrite} />
    </Flex>
  );
}
