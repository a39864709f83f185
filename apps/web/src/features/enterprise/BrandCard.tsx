/**
 * The company's logo (wide, 220x58), icon (square, 58x58) and theme colour. A picked file is
 * checked here as the server checks it (JPG, JPEG, GIF or PNG by content, at most 1 MB), uploaded
 * (company/uploadLogo), then put on the company (company/{id}/logo). The colour is previewed on a
 * primary button with the text colour the theme will pick for it (white or black, whichever
 * reads at 4.5:1 or more) before it is saved for every account of the company.
 */
import { UploadOutlined } from '@ant-design/icons';
import { companyApi, defaultThemeColor } from '@sunfleet/contracts';
import { App, Button, Card, ColorPicker, Flex, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGuardedAction } from '../../api/guard.ts';
import { useApiMutation } from '../../api/hooks.ts';
import { Can, useMayCall } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import { contrastRatio, textOn } from '../../lib/colour.ts';
import styles from './enterprise.module.css';
import { logoProblem } from './logoProblem.ts';
import { type CompanyInfo, useCompanyChanged } from './queries.ts';

const HEX = /^#[0-9a-f]{6}$/i;

export function BrandCard({ company }: { company: CompanyInfo }) {
  const { t } = useTranslation('enterprise');
  const mayEdit = useMayCall()(companyApi.setThemeColor);
  return (
    <Card title={t('brand.title')} data-testid="brand-card">
      <Flex gap={32} wrap>
        <LogoField company={company} which="logoUrl" disabled={!mayEdit} />
        <LogoField company={company} which="iconUrl" disabled={!mayEdit} />
        <ThemeColorField company={company} disabled={!mayEdit} />
      </Flex>
    </Card>
  );
}

function LogoField({ company, which, disabled }: { company: CompanyInfo; which: 'logoUrl' | 'iconUrl'; disabled: boolean }) {
  const { t } = useTranslation('enterprise');
  const { message } = App.useApp();
  const upload = useApiMutation(companyApi.uploadLogo);
  const setLogo = useApiMutation(companyApi.setLogo);
  const changed = useCompanyChanged();
  const url = company[which];
  const wide = which === 'logoUrl';
  const maxMb = companyApi.companyLimits.logoBytes / 1024 / 1024;

  const put = async (next: string | null) => {
    const saved = await setLogo.mutateAsync({
      params: { id: company.id },
      body: { logoUrl: company.logoUrl, iconUrl: company.iconUrl, [which]: next },
    });
    changed(saved);
    message.success(t('common:saved'));
  };
  const send = async (file: File) => {
    const problem = await logoProblem(file);
    if (problem) {
      message.error(problem === 'type' ? t('brand.wrongType') : t('brand.tooLarge', { max: maxMb }));
      return;
    }
    try {
      const { url: stored } = await upload.mutateAsync({ body: { file } });
      await put(stored);
    } catch {
      // The client has shown the error.
    }
  };
  const [remove, removing] = useGuardedAction(() => put(null));

  return (
    <Flex vertical gap={8} data-testid={`brand-field-${wide ? 'logo' : 'icon'}`}>
      <Typography.Text strong>{wide ? t('brand.logo') : t('brand.icon')}</Typography.Text>
      <div className={wide ? styles.logoBox : styles.iconBox}>
        {url ? (
          <img src={url} alt={wide ? t('brand.logo') : t('brand.icon')} className={styles.logoImage} />
        ) : (
          <Typography.Text type="secondary">{t('brand.none')}</Typography.Text>
        )}
      </div>
      <Typography.Text type="secondary" className={ui.note}>
        {t(wide ? 'brand.logoHint' : 'brand.iconHint', { max: maxMb })}
      </Typography.Text>
      {!disabled && (
        <Space>
          <Upload
            accept=".jpg,.jpeg,.png,.gif,image/jpeg,image/png,image/gif"
            showUploadList={false}
            beforeUpload={(file) => {
              void send(file);
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} loading={upload.isPending || setLogo.isPending} data-testid={`upload-${which}`}>
              {t('brand.upload')}
            </Button>
          </Upload>
          {url && (
            <Button onClick={() => remove()} loading={removing} data-testid={`remove-${which}`}>
              {t('brand.remove')}
            </Button>
          )}
        </Space>
      )}
    </Flex>
  );
}

function ThemeColorField({ company, disabled }: { company: CompanyInfo; disabled: boolean }) {
  const { t } = useTranslation('enterprise');
  const { message } = App.useApp();
  const [color, setColor] = useState(company.themeColor);
  const mutation = useApiMutation(companyApi.setThemeColor);
  const changed = useCompanyChanged();
  const valid = HEX.test(color);
  const text = valid ? textOn(color) : '#000000';

  const [save, busy] = useGuardedAction(async (next: string | null) => {
    const saved = await mutation.mutateAsync({ params: { id: company.id }, body: { themeColor: next } });
    setColor(saved.themeColor);
    changed(saved);
    message.success(t('common:saved'));
  });

  return (
    <Flex vertical gap={8} data-testid="brand-color">
      <Typography.Text strong>{t('brand.color')}</Typography.Text>
      <Space wrap>
        <ColorPicker
          value={color}
          disabled={disabled}
          disabledAlpha
          showText
          format="hex"
          onChangeComplete={(c) => setColor(c.toHexString().slice(0, 7).toLowerCase())}
          data-testid="color-picker"
        />
        {/* The swatch shows the colour with the text colour the portal will put on it (inline: the colour is the user's). */}
        <span
          className={styles.swatch}
          style={{ background: valid ? color : undefined, color: text }}
          data-testid="color-preview"
          title={t('brand.preview')}
        >
          {t('brand.sample')}
        </span>
      </Space>
      <Typography.Text type="secondary" className={ui.note} data-testid="color-contrast">
        {valid
          ? t('brand.contrast', {
              text: text === '#ffffff' ? t('brand.white') : t('brand.black'),
              ratio: contrastRatio(text, color).toFixed(1),
            })
          : null}
      </Typography.Text>
      <Can call={companyApi.setThemeColor}>
        <Space>
          <Button
            type="primary"
            disabled={!valid || color === company.themeColor}
            loading={busy}
            onClick={() => save(color)}
            data-testid="color-save"
          >
            {t('brand.applyColor')}
          </Button>
          <Button disabled={company.themeColor === defaultThemeColor} onClick={() => save(null)} data-testid="color-reset">
            {t('brand.resetColor', { color: defaultThemeColor })}
          </Button>
        </Space>
      </Can>
    </Flex>
  );
}
