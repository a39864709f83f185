/** A chart's place when its period has nothing to draw: "No data for this period", at the chart's height. */
import { Empty, Flex } from 'antd';
import { useTranslation } from 'react-i18next';

export function ChartEmpty({ height, testId }: { height: number; testId?: string }) {
  const { t } = useTranslation('common');
  return (
    // The height of the chart it stands for, so the card does not jump when data arrives.
    <Flex align="center" justify="center" style={{ height }}>
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('chart.noData')} data-testid={testId} />
    </Flex>
  );
}
