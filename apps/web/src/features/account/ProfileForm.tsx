/** Profile fields → POST /api/v1/user/:id. Role and company are read-only. */
import { account, temperatureUnits } from '@sunfleet/contracts';
import { App, Button, Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { useGuardedAction } from '../../api/guard.ts';
import { useApiMutation, useProfileUpdater } from '../../api/hooks.ts';
import type { UserProfile } from '../../app/shell/shellContext.ts';
import { SafeInput } from '../../components/SafeInput.tsx';
import { schemaRules } from '../../components/schemaRules.ts';
import styles from './account.module.css';

interface ProfileValues {
  name: string;
  nickname: string;
  gender: 'male' | 'female' | null;
  phone: string;
  temperatureUnit: 'C' | 'F';
}

const body = account.updateUser.body;

export function ProfileForm({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const update = useApiMutation(account.updateUser);
  const storeProfile = useProfileUpdater();
  const tooLong = (max: number) => t('common:validation.maxLength', { max });

  const [save, busy] = useGuardedAction(async (values: ProfileValues) => {
    const next = await update.mutateAsync({
      params: { id: profile.id },
      body: {
        name: values.name ?? '',
        nickname: values.nickname ?? '',
        phone: values.phone ?? '',
        temperatureUnit: values.temperatureUnit,
        ...(values.gender ? { gender: values.gender } : {}),
      },
    });
    storeProfile(next);
    message.success(t('common:saved'));
  });

  return (
    <Form<ProfileValues>
      layout="vertical"
      onFinish={save}
      data-testid="profile-form"
      initialValues={{
        name: profile.name ?? '',
        nickname: profile.nickname ?? '',
        gender: profile.gender,
        phone: profile.phone ?? '',
        temperatureUnit: profile.temperatureUnit,
      }}
      className={styles.profileForm}
    >
      <Form.Item label={t('profile.account')} htmlFor="profile-account">
        <Input id="profile-account" value={profile.account} disabled />
      </Form.Item>
      <Form.Item label={t('profile.role')} htmlFor="profile-role">
        <Input id="profile-role" value={profile.role} disabled data-testid="profile-role" />
      </Form.Item>
      <Form.Item name="name" label={t('profile.name')} rules={schemaRules(body, 'name', { max: tooLong(64) })}>
        <SafeInput placeholder={t('profile.namePlaceholder')} />
      </Form.Item>
      <Form.Item name="nickname" label={t('profile.nickname')} rules={schemaRules(body, 'nickname', { max: tooLong(32) })}>
        <SafeInput placeholder={t('profile.nicknamePlaceholder')} data-testid="profile-nickname" />
      </Form.Item>
      <Form.Item name="gender" label={t('profile.gender')}>
        <Radio.Group
          options={[
            { value: 'male', label: t('profile.male') },
            { value: 'female', label: t('profile.female') },
          ]}
        />
      </Form.Item>
      <Form.Item
        name="phone"
        label={t('profile.phone')}
        rules={schemaRules(body, 'phone', { pattern: t('profile.phoneInvalid') })}
      >
        <SafeInput allowChars="+" inputMode="tel" placeholder="+34 600 000 000" />
      </Form.Item>
      <Form.Item label={t('profile.company')} htmlFor="profile-company">
        <Input id="profile-company" value={profile.company?.name ?? t('profile.noCompany')} disabled />
      </Form.Item>
      <Form.Item name="temperatureUnit" label={t('profile.temperatureUnit')}>
        <Radio.Group optionType="button" options={temperatureUnits.map((u) => ({ value: u, label: t(`profile.unit${u}`) }))} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="profile-save">
        {t('common:save')}
      </Button>
    </Form>
  );
}
