/** English / Español; the choice is stored (signed in: in the profile too, through `onSave`) and the page reloads. */
import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, offeredLanguages, type UiLanguage } from '../app/language.ts';

export function LanguageSwitch({ onSave }: { onSave?: (code: UiLanguage) => Promise<unknown> }) {
  const { i18n, t } = useTranslation();
  const current = offeredLanguages.find((l) => i18n.language.startsWith(l.code)) ?? offeredLanguages[0];
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current.code],
        items: offeredLanguages.map((l) => ({
          key: l.code,
          label: <span data-testid={`language-${l.code}`}>{l.label}</span>,
        })),
        onClick: ({ key }) => {
          if (key !== current.code) void chooseLanguage(key as UiLanguage, onSave);
        },
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} data-testid="language-switch" aria-label={t('language')}>
        {current.label}
      </Button>
    </Dropdown>
  );
}
