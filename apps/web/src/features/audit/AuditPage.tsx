/**
 * /management/audit: the administrative audit log — who changed which company, account, role,
 * customer or gateway in stock, when, and what changed (each field before and after). Operators
 * see every company's records and may filter by company; a company administrator sees their own
 * company's. Filters live in the address; times in the browser's zone.
 */
import { companyApi, type DataOf } from '@sunfleet/contracts';
import { Button, Card, DatePicker, Flex, Input, InputNumber, Select, type TableColumnsType, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useShell } from '../../app/shell/shellContext.ts';
import { ListTable, listPagination } from '../../components/ListTable.tsx';
import { PageError } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import ui from '../../components/ui.module.css';
import { useAddressCriteria } from '../../components/useAddressCriteria.ts';
import styles from './audit.module.css';
import { useAuditLog } from './auditQueries.ts';
import { auditQuery, changedFields, criteriaSearch, pageSizes, parseCriteria } from './criteria.ts';

type Entry = DataOf<typeof companyApi.adminAudit>['list'][number];

/** A value as a short text: lists joined, long texts cut (the whole text is the title). */
function show(v: unknown): string {
  if (v === undefined || v === null || v === '') return '--';
  if (Array.isArray(v)) return v.length ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', ') : '--';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}
const MAX_SHOWN = 80;
const cut = (text: string) => (text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text);

export default function AuditPage() {
  const { t, i18n } = useTranslation('audit');
  const { profile } = useShell();
  const { criteria, update, onPage, reset } = useAddressCriteria(parseCriteria, criteriaSearch);
  const list = useAuditLog(auditQuery(criteria));
  const operator = profile.kind === 'sysadmin';
  const time = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }),
    [i18n.language],
  );

  const columns: TableColumnsType<Entry> = [
    { key: 'at', title: t('columns.at'), width: 220, render: (_, e) => time.format(new Date(e.at)) },
    { key: 'actor', title: t('columns.actor'), width: 220, render: (_, e) => e.actorAccount ?? `#${e.actorId}` },
    ...(operator
      ? [{ key: 'company', title: t('columns.company'), width: 160, render: (_: unknown, e: Entry) => e.companyName ?? '--' }]
      : []),
    {
      key: 'what',
      title: t('columns.what'),
      width: 200,
      render: (_, e) => (
        <span>
          <Tag>{t(`entities.${e.entity}`)}</Tag>
          <Typography.Text className={ui.mono}>{e.entityId}</Typography.Text>
        </span>
      ),
    },
    {
      key: 'action',
      title: t('columns.action'),
      width: 110,
      render: (_, e) => t(`actions.${e.action}`, { defaultValue: e.action }),
    },
    {
      key: 'changes',
      title: t('columns.changes'),
      width: 360,
      ellipsis: false,
      render: (_, e) => {
        const changes = changedFields(e.before, e.after);
        if (!changes.length) return '--';
        return (
          <Flex vertical gap={2} data-testid={`audit-changes-${e.id}`}>
            {changes.map((c) => (
              <Typography.Text key={c.field} className={ui.note} title={`${show(c.from)} → ${show(c.to)}`}>
                <strong>{c.field}</strong>: {cut(show(c.from))} → {cut(show(c.to))}
              </Typography.Text>
            ))}
          </Flex>
        );
      },
    },
  ];

  const range = criteria.start && criteria.end ? ([dayjs(criteria.start), dayjs(criteria.end)] as const) : null;
  return (
    <Card data-testid="audit-page">
      <Flex justify="space-between" align="center" gap={16} wrap className={ui.gapBelow}>
        <PageTitle>{t('menu:auditLog')}</PageTitle>
      </Flex>
      <Flex gap={12} wrap className={ui.gapBelow}>
        <Select
          allowClear
          aria-label={t('filters.entity')}
          placeholder={t('filters.entity')}
          value={criteria.entity}
          onChange={(entity) => update({ entity })}
          options={companyApi.auditEntities.map((e) => ({ value: e, label: t(`entities.${e}`) }))}
          className={styles.filter}
          data-testid="audit-entity"
        />
        <Input.Search
          allowClear
          aria-label={t('filters.actor')}
          placeholder={t('filters.actor')}
          defaultValue={criteria.actor}
          maxLength={254}
          onSearch={(actor) => update({ actor: actor.trim() })}
          className={styles.search}
          data-testid="audit-actor"
        />
        {operator && (
          <InputNumber
            aria-label={t('filters.company')}
            placeholder={t('filters.company')}
            min={1}
            precision={0}
            value={criteria.companyId ?? null}
            onChange={(v) => update({ companyId: typeof v === 'number' && v > 0 ? v : undefined })}
            className={styles.company}
          />
        )}
        <DatePicker.RangePicker
          aria-label={t('filters.range')}
          value={range ? [range[0], range[1]] : null}
          onChange={(v) =>
            update(
              v?.[0] && v[1]
                ? { start: v[0].format('YYYY-MM-DD'), end: v[1].format('YYYY-MM-DD') }
                : { start: undefined, end: undefined },
            )
          }
        />
        <Button onClick={reset}>{t('filters.reset')}</Button>
      </Flex>
      {list.isError && !list.data ? (
        <PageError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <ListTable<Entry>
          fill
          aria-label={t('menu:auditLog')}
          rowKey="id"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isPending || list.isFetching}
          pagination={listPagination({ ...criteria, total: list.data?.total ?? 0, sizes: pageSizes, onPage })}
        />
      )}
    </Card>
  );
}
