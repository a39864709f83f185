/** The avatar: JPG, JPEG or PNG up to 6 MB, checked here too → multipart field `file`. */
import { UserOutlined } from '@ant-design/icons';
import { account, limits } from '@sunfleet/contracts';
import { App, Avatar, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiMutation, useProfileUpdater } from '../../api/hooks.ts';
import type { UserProfile } from '../../app/shell/shellContext.ts';
import { ImageUploadButton } from '../../components/ImageUploadButton.tsx';
import { imageProblem } from '../../components/imageProblem.ts';
import ui from '../../components/ui.module.css';

export function AvatarUpload({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const upload = useApiMutation(account.uploadAvatar);
  const storeProfile = useProfileUpdater();
  const maxMb = limits.avatarBytes / 1024 / 1024;

  const send = async (file: File) => {
    const problem = await imageProblem(file, limits.avatarBytes);
    if (problem) {
      message.error(problem === 'type' ? t('avatar.wrongType') : t('avatar.tooLarge', { max: maxMb }));
      return;
    }
    try {
      const { avatar } = await upload.mutateAsync({ params: { id: profile.id }, body: { file } });
      storeProfile({ ...profile, avatar });
      message.success(t('avatar.uploaded'));
    } catch {
      // The client has shown the error.
    }
  };

  return (
    <Flex align="center" gap={16} className={ui.gapBelowLg}>
      <Avatar size={72} src={profile.avatar ?? undefined} icon={<UserOutlined />} data-testid="avatar" />
      <Flex vertical gap={4}>
        <ImageUploadButton onFile={(file) => void send(file)} loading={upload.isPending} testId="avatar-upload">
          {t('avatar.change')}
        </ImageUploadButton>
        <Typography.Text type="secondary" className={ui.note}>
          {t('avatar.hint', { max: maxMb })}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}
