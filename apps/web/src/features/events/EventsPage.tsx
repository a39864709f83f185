/**
 * /device/event (event.view): events of the plants the caller can see — counts per level, filters
 * (plant, a search by part of an SN, alias or plant name, a linked device SN, device type, state,
 * acknowledgement, start dates ≤ 90 days with quick ranges), the server-paged list in a virtual
 * table with its times in the browser's zone (named), the detail drawer with acknowledgement, and
 * the .xlsx downloads of the filtered inverter and battery events. The filters live in the
 * address; a refused period, SN or too short a search is explained and not sent.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { Card, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { LevelCards } from '../../components/LevelCards.tsx';
import { PageError } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { RangeProblem } from '../../components/RangeField.tsx';
import ui from '../../components/ui.module.css';
import { useAddressCriteria } from '../../components/useAddressCriteria.ts';
import { rangeProblem } from '../../lib/dateRange.ts';
import { isValidSn } from '../../lib/deviceSn.ts';
import { browserZone } from '../../lib/zonedTime.ts';
import { criteriaSearch, isFiltered, parseCriteria } from './criteria.ts';
import { EventDownloads } from './EventDownloads.tsx';
import { EventDrawer } from './EventDrawer.tsx';
import { EventFilters } from './EventFilters.tsx';
import { EventTable } from './EventTable.tsx';
import { type EventRow, useEventList, useLevelCounts } from './eventQueries.ts';

export default function EventsPage() {
  const { t } = useTranslation('events');
  const { criteria, update, onPage, reset } = useAddressCriteria(parseCriteria, criteriaSearch);
  const [timezone] = useState(browserZone);
  const [open, setOpen] = useState<EventRow | null>(null);

  const badSn = criteria.sn !== '' && !isValidSn(criteria.sn);
  const blocked = rangeProblem(criteria.range) !== null || badSn;
  const list = useEventList(criteria, timezone, !blocked);
  const { counts, loading: countsLoading } = useLevelCounts(criteria, timezone, !blocked);
  const snUnknown = list.error instanceof ApiError && list.error.code === ErrorCode.notFound && criteria.sn !== '';

  const rows = blocked || snUnknown ? [] : (list.data?.list ?? []);
  const total = blocked || snUnknown ? 0 : (list.data?.total ?? 0);

  return (
    <Card data-testid="events-page">
      <Flex justify="space-between" align="center" gap={16} wrap className={ui.gapBelow}>
        <PageTitle>{t('menu:events')}</PageTitle>
        <EventDownloads criteria={criteria} timezone={timezone} blocked={blocked} />
      </Flex>

      <LevelCards
        counts={blocked || snUnknown ? undefined : counts}
        loading={!blocked && countsLoading}
        level={criteria.level}
        onLevel={(level) => update({ level })}
      />

      <EventFilters criteria={criteria} snUnknown={snUnknown} filtered={isFiltered(criteria)} onChange={update} onReset={reset} />
      <RangeProblem range={criteria.range} ns="events" testId="event-range-problem" />

      {list.isError && !snUnknown && !list.data ? (
        <PageError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <EventTable
          rows={rows}
          total={total}
          loading={!blocked && (list.isPending || list.isFetching)}
          page={criteria.page}
          size={criteria.size}
          onPage={onPage}
          onOpen={setOpen}
          timezone={timezone}
        />
      )}

      <EventDrawer row={open} onClose={() => setOpen(null)} timezone={timezone} />
    </Card>
  );
}
