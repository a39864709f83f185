/**
 * /plants — the plant list (built by the plants issue). For now: the placeholder, with the
 * "create plant" button behind its permission to show the directive at work.
 */
import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ComingSoon } from '../../components/ComingSoonPage.tsx';
import { Permission } from '../../components/Permission.tsx';

export default function PlantListPage() {
  const { t } = useTranslation('menu');
  const navigate = useNavigate();
  return (
    <ComingSoon
      actions={
        <Permission name="station.create">
          <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate('/plant-add')} data-testid="add-plant">
            {t('plantAdd')}
          </Button>
        </Permission>
      }
    />
  );
}
