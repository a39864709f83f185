/**
 * A button that picks a JPG or PNG and hands the file to `onFile` (antd uploads nothing itself):
 * the caller checks it (`imageProblem`) and sends it through its own endpoint.
 */
import { UploadOutlined } from '@ant-design/icons';
import { Button, Upload } from 'antd';
import type { ReactNode } from 'react';

export function ImageUploadButton({
  onFile,
  loading,
  testId,
  children,
}: {
  onFile: (file: File) => void;
  loading: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Upload
      accept=".jpg,.jpeg,.png,image/jpeg,image/png"
      showUploadList={false}
      beforeUpload={(file) => {
        onFile(file);
        return false;
      }}
    >
      <Button icon={<UploadOutlined />} loading={loading} data-testid={testId}>
        {children}
      </Button>
    </Upload>
  );
}
