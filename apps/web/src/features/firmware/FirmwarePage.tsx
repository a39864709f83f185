/**
 * /firmware/gate (firmware.gateway.view) and /firmware/inv (firmware.inverter.view): the
 * platform operator's firmware library of one device type: the images (list, upload, detail,
 * enable, delete), the products they are for, and for inverters the inverter types.
 */
import { Card, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../components/PageTitle.tsx';
import { FirmwareList } from './FirmwareList.tsx';
import type { FirmwareType } from './firmwareQueries.ts';
import { InverterTypesTab } from './InverterTypesTab.tsx';
import { ProductsTab } from './ProductsTab.tsx';

export function FirmwarePage({ type }: { type: FirmwareType }) {
  const { t } = useTranslation('firmware');
  const [tab, setTab] = useState('images');
  const items = [
    { key: 'images', label: t('tabs.images'), children: <FirmwareList type={type} /> },
    { key: 'products', label: t('tabs.products'), children: <ProductsTab type={type} /> },
    ...(type === 'inverter' ? [{ key: 'types', label: t('tabs.types'), children: <InverterTypesTab /> }] : []),
  ];
  return (
    <Card data-testid={`firmware-page-${type}`}>
      <PageTitle>{t(`title.${type}`)}</PageTitle>
      <Tabs activeKey={tab} onChange={setTab} items={items} destroyOnHidden />
    </Card>
  );
}
