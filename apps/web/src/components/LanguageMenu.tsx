/** The language switch's menu, opened at once (it loads on the button's first click). */
import { Dropdown } from 'antd';
import { useState } from 'react';
import { chooseLanguage, offeredLanguages, type UiLanguage } from '../app/language.ts';
import { LanguageButton, useCurrentLanguage } from './LanguageSwitch.tsx';

export default function LanguageMenu({ onSave }: { onSave?: (code: UiLanguage) => Promise<unknown> }) {
  const current = useCurrentLanguage();
  const [open, setOpen] = useState(true);
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      autoFocus
      menu={{
        selectable: true,
        selectedKeys: [current.code],
        items: offeredLanguages.map((l) => ({
          key: l.code,
          label: <span data-testid={`language-${l.code}`}>{l.label}</span>,
        })),
        onClick: ({ key }) => {
          setOpen(false);
          if (key !== current.code) void chooseLanguage(key as UiLanguage, onSave);
        },
      }}
    >
      <LanguageButton autoFocus aria-expanded={open} />
    </Dropdown>
  );
}
