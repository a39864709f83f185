/** Form fields the stock's dialogs share: the protocol choice and the import mode. */
import { isDeviceAlias } from '@sunfleet/contracts';
import { Flex, Radio, Select, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { isValidSn } from '../../lib/deviceSn.ts';
import css from './stock.module.css';
import { useProtocols } from './stockQueries.ts';

export type Mode = 'valid' | 'all';

export function ProtocolSelect({
  value,
  onChange,
  allowClear = true,
  testId,
  placeholder,
  ariaLabel,
}: {
  value?: string | null;
  onChange?: (value: string | null) => void;
  allowClear?: boolean;
  testId?: string;
  placeholder?: string;
  ariaLabel?: string;
}) {
  const protocols = useProtocols();
  return (
    <Select
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      allowClear={allowClear}
      showSearch
      optionFilterProp="label"
      loading={protocols.isPending}
      placeholder={placeholder}
      aria-label={ariaLabel ?? placeholder}
      options={(protocols.data ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.id})` }))}
      data-testid={testId}
      popupMatchSelectWidth={false}
      className={css.full}
    />
  );
}

export function ModeChoice({ value, onChange }: { value?: Mode; onChange?: (mode: Mode) => void }) {
  const { t } = useTranslation('gatewayStock');
  return (
    <Radio.Group value={value} onChange={(e) => onChange?.(e.target.value as Mode)} data-testid="stock-mode">
      <Flex vertical gap={4}>
        {(['valid', 'all'] as const).map((m) => (
          <Radio key={m} value={m} data-testid={`stock-mode-${m}`}>
            {t(`mode.${m}`)} <Typography.Text type="secondary">— {t(`mode.${m}Hint`)}</Typography.Text>
          </Radio>
        ))}
      </Flex>
    </Radio.Group>
  );
}

/** The SN and alias rules, as the server checks them. */
export const snRules = (t: TFunction): Rule[] => [
  { required: true, whitespace: true, message: t('gatewayStock:create.snRequired') },
  {
    validator: async (_, v: string | undefined) =>
      !v || isValidSn(v.trim()) ? undefined : Promise.reject(new Error(t('gatewayStock:create.snFormat'))),
  },
];
export const aliasRules = (t: TFunction): Rule[] => [
  {
    validator: async (_, v: string | undefined) =>
      !v || isDeviceAlias(v.trim()) ? undefined : Promise.reject(new Error(t('gatewayStock:create.aliasTooLong'))),
  },
];
