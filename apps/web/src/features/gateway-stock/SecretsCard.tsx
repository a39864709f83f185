/**
 * The claim keys and device secrets of gateways just made: shown once (the portal keeps only
 * their SHA-256), each with a copy button, and all of them as a .csv saved in the browser.
 */
import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Flex, type TableColumnsType, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { saveFile } from '../../components/download.ts';
import { ListTable } from '../../components/ListTable.tsx';
import ui from '../../components/ui.module.css';
import { type MadeGateway, secretsCsv } from './secrets.ts';

function Copyable({ text, label, testId }: { text: string; label: string; testId: string }) {
  const { t } = useTranslation('gatewayStock');
  const { message } = App.useApp();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      message.success(t('secrets.copied'));
    } catch {
      // Without clipboard access the text stays selectable.
    }
  };
  return (
    <Flex gap={4} align="center" className={ui.shrink}>
      <Typography.Text code className={ui.mono} data-testid={testId}>
        {text}
      </Typography.Text>
      <Tooltip title={t('secrets.copy')}>
        <Button type="text" size="small" icon={<CopyOutlined />} aria-label={`${t('secrets.copy')} ${label}`} onClick={copy} />
      </Tooltip>
    </Flex>
  );
}

export function SecretsCard({ made }: { made: readonly MadeGateway[] }) {
  const { t } = useTranslation('gatewayStock');
  if (made.length === 0) return null;
  const save = () => {
    const csv = secretsCsv(made, [t('create.sn'), t('secrets.claimKey'), t('secrets.secret'), t('secrets.firmwareKey')]);
    saveFile(new Blob([csv], { type: 'text/csv;charset=utf-8' }), `gateway-keys-${new Date().toISOString().slice(0, 19)}.csv`);
  };
  const columns: TableColumnsType<MadeGateway> = [
    { key: 'sn', dataIndex: 'sn', title: t('create.sn'), width: 170 },
    {
      key: 'claimKey',
      title: t('secrets.claimKey'),
      width: 320,
      render: (_, g) => <Copyable text={g.claimKey} label={`${g.sn} ${t('secrets.claimKey')}`} testId={`claim-key-${g.sn}`} />,
    },
    {
      key: 'secret',
      title: t('secrets.secret'),
      width: 360,
      render: (_, g) => <Copyable text={g.secret} label={`${g.sn} ${t('secrets.secret')}`} testId={`secret-${g.sn}`} />,
    },
  ];
  return (
    <Flex vertical gap={8} data-testid="stock-secrets">
      <Alert type="warning" showIcon message={t('secrets.title')} description={t('secrets.warning')} />
      <Flex vertical gap={2}>
        <Typography.Text strong>{t('secrets.firmwareKey')}</Typography.Text>
        <Typography.Text type="secondary">{t('secrets.firmwareKeyHint')}</Typography.Text>
        <Copyable text={made[0]!.firmwareKey} label={t('secrets.firmwareKey')} testId="firmware-key" />
      </Flex>
      <Flex justify="end">
        <Button icon={<DownloadOutlined />} onClick={save} data-testid="stock-secrets-save">
          {t('secrets.save')}
        </Button>
      </Flex>
      <ListTable<MadeGateway>
        rowKey="sn"
        size="small"
        columns={columns}
        dataSource={[...made]}
        stickyHeader={false}
        height={made.length > 8 ? 320 : undefined}
        pagination={false}
        aria-label={t('secrets.title')}
      />
    </Flex>
  );
}
