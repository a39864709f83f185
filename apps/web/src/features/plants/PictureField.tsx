/**
 * The plant picture (at most 10 MB): JPG or PNG told by the file's first bytes, not its
 * name. The picture is stored through `plant/thumbnail`; a thumbnail (at most 320 px, JPEG) is
 * drawn on a canvas and stored the same way, for lists and popups. A Form.Item control.
 */
import { DeleteOutlined, PictureOutlined } from '@ant-design/icons';
import { limits, plantsApi } from '@sunfleet/contracts';
import { App, Button, Flex, Image, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client.ts';
import { ImageUploadButton } from '../../components/ImageUploadButton.tsx';
import { imageProblem } from '../../components/imageProblem.ts';
import ui from '../../components/ui.module.css';
import styles from './plants.module.css';

export interface PictureValue {
  picture: string | null;
  thumbnail: string | null;
}

/** Why a file cannot be a plant picture, or null. */
export const pictureProblem = (file: Blob) => imageProblem(file, limits.plantPictureBytes);

export const THUMBNAIL_PX = 320;

/** A JPEG at most `max` px on its longer side; null where the browser cannot draw it. */
export async function makeThumbnail(file: Blob, max = THUMBNAIL_PX): Promise<Blob | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, max / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    // Transparent PNG areas become white rather than black in a JPEG.
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    return await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
  } catch {
    return null;
  }
}

export function PictureField({
  value,
  onChange,
  disabled,
}: {
  value?: PictureValue;
  onChange?: (v: PictureValue) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('plants');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const maxMb = limits.plantPictureBytes / 1024 / 1024;

  const send = async (file: File) => {
    const problem = await pictureProblem(file);
    if (problem) {
      message.error(problem === 'type' ? t('picture.wrongType') : t('picture.tooLarge', { max: maxMb }));
      return;
    }
    setBusy(true);
    try {
      const { url: picture } = await call(plantsApi.uploadPicture, { body: { file } });
      const small = await makeThumbnail(file);
      const thumbnail = small
        ? (await call(plantsApi.uploadPicture, { body: { file: new File([small], 'thumbnail.jpg', { type: 'image/jpeg' }) } }))
            .url
        : picture;
      onChange?.({ picture, thumbnail });
    } catch {
      // The client has shown the error.
    } finally {
      setBusy(false);
    }
  };

  const shown = value?.thumbnail ?? value?.picture ?? null;
  return (
    <Flex gap={16} align="center" wrap data-testid="plant-picture">
      <div className={styles.picture}>
        {shown ? (
          <Image
            src={shown}
            preview={value?.picture ? { src: value.picture } : false}
            alt={t('picture.label')}
            width={160}
            height={110}
            className={styles.pictureImage}
            data-testid="plant-picture-preview"
          />
        ) : (
          <PictureOutlined className={styles.picturePlaceholder} />
        )}
      </div>
      <Flex vertical gap={6}>
        {!disabled && (
          <Flex gap={8}>
            <ImageUploadButton onFile={(file) => void send(file)} loading={busy} testId="plant-picture-upload">
              {shown ? t('picture.change') : t('picture.upload')}
            </ImageUploadButton>
            {shown && (
              <Button
                icon={<DeleteOutlined />}
                onClick={() => onChange?.({ picture: null, thumbnail: null })}
                data-testid="plant-picture-remove"
              >
                {t('picture.remove')}
              </Button>
            )}
          </Flex>
        )}
        <Typography.Text type="secondary" className={ui.note}>
          {t('picture.hint', { max: maxMb })}
        </Typography.Text>
      </Flex>
    </Flex>
  );
}
