/**
 * /energyHub/enrollmentPlan (energyhub.view): the portal's connection to the VTN (registered,
 * last check, last error); the programmes the connected VTN offers, each with its terms PDF and,
 * for a caller who may enrol, the enrolment form; the caller's enrolments with their state and
 * devices (a drawer with addresses and devices, removing a device and unenrolling after a
 * confirmation, adding devices). Without a VTN the page says it is not connected.
 */
import { demandResponseApi as api } from '@sunfleet/contracts';
import { Button, Card, Descriptions, Drawer, Flex, List, message, Popconfirm, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../components/ListTable.tsx';
import { PageError, PageLoading, StateMessage } from '../../components/PageState.tsx';
import { PageTitle } from '../../components/PageTitle.tsx';
import { useMayCall } from '../../components/Permission.tsx';
import ui from '../../components/ui.module.css';
import { AddDevices } from './AddDevices.tsx';
import { EnrollForm } from './EnrollForm.tsx';
import css from './energyHub.module.css';
import {
  type EnrollmentRow,
  type Programme,
  useEnrollment,
  useEnrollments,
  usePrograms,
  useRefresh,
  useRemoveDevice,
  useUnenroll,
} from './queries.ts';
import { VtnConnection } from './VtnConnection.tsx';

export const stateColour: Record<string, string> = {
  invited: 'blue',
  pending: 'gold',
  accepted: 'green',
  rejected: 'red',
  unenrolled: 'default',
  active: 'green',
  pending_event: 'gold',
  completed: 'default',
  cancelled: 'red',
};

function Programmes({ onEnrol }: { onEnrol: (p: Programme) => void }) {
  const { t } = useTranslation('energyHub');
  const programs = usePrograms();
  const may = useMayCall();
  if (programs.isPending) return <PageLoading />;
  if (programs.isError) return <PageError error={programs.error} onRetry={() => void programs.refetch()} />;
  const data = programs.data;
  if (!data.connected)
    return <StateMessage kind="warning" title={t('notConnected')} detail={t('notConnectedDetail')} testId="dr-not-connected" />;
  return (
    <>
      {data.vtn && <VtnConnection vtn={data.vtn} />}
      {!data.live && <Typography.Paragraph type="warning">{t('offlineList')}</Typography.Paragraph>}
      <List
        data-testid="dr-programmes"
        locale={{ emptyText: t('noProgrammes') }}
        dataSource={data.programs}
        renderItem={(p) => (
          <List.Item
            actions={[
              p.termsUrl ? (
                <a key="terms" href={p.termsUrl} target="_blank" rel="noreferrer">
                  {t('terms')}
                </a>
              ) : (
                <Typography.Text key="terms" type="secondary">
                  {t('noTerms')}
                </Typography.Text>
              ),
              ...(may(api.enroll) && p.termsUrl
                ? [
                    <Button key="enrol" type="primary" onClick={() => onEnrol(p)} data-testid={`enrol-${p.id}`}>
                      {t('enrol')}
                    </Button>,
                  ]
                : []),
            ]}
          >
            <List.Item.Meta title={p.name} description={p.type ?? undefined} />
          </List.Item>
        )}
      />
    </>
  );
}

function EnrollmentDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation('energyHub');
  const detail = useEnrollment(id);
  const remove = useRemoveDevice();
  const unenroll = useUnenroll();
  const refresh = useRefresh();
  const may = useMayCall();
  const [adding, setAdding] = useState(false);
  const e = detail.data;
  const active = e && e.state !== 'unenrolled' && e.state !== 'rejected';
  const address = (a: NonNullable<typeof e>['serviceAddress']) =>
    [a.streetAddress, a.extendedAddress, a.postalCode, a.locality, a.region, a.country].filter(Boolean).join(', ');
  return (
    <Drawer open={id !== null} onClose={onClose} width={640} title={id !== null ? t('detail.title', { id }) : ''} destroyOnHidden>
      {detail.isPending && id !== null && <PageLoading />}
      {detail.isError && <PageError error={detail.error} onRetry={() => void detail.refetch()} />}
      {e && (
        <Space direction="vertical" size="large" className={css.fullWidth} data-testid="dr-enrollment-detail">
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('columns.programme')}>{e.programName}</Descriptions.Item>
            <Descriptions.Item label={t('columns.state')}>
              <Tag color={stateColour[e.state]}>{t(`state.${e.state}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('form.email')}>{e.email}</Descriptions.Item>
            <Descriptions.Item label={t('detail.name')}>{`${e.firstName} ${e.lastName}`}</Descriptions.Item>
            <Descriptions.Item label={t('detail.serviceAddress')}>{address(e.serviceAddress)}</Descriptions.Item>
            <Descriptions.Item label={t('detail.mailingAddress')}>{address(e.mailingAddress)}</Descriptions.Item>
            <Descriptions.Item label={t('form.sourceAccount')}>{e.sourceAccount}</Descriptions.Item>
            <Descriptions.Item label={t('form.utilityAccount')}>{e.utilityAccount}</Descriptions.Item>
          </Descriptions>
          <List
            header={t('form.devices')}
            bordered
            locale={{ emptyText: t('detail.noDevices') }}
            dataSource={e.deviceList}
            renderItem={(d) => (
              <List.Item
                actions={
                  active && may(api.removeDevice)
                    ? [
                        <Popconfirm
                          key="remove"
                          title={t('removeDeviceConfirm', { sn: d.sn })}
                          onConfirm={async () => {
                            await remove.mutateAsync({ params: { id: e.id, sn: d.sn } });
                            await refresh();
                          }}
                        >
                          <Button danger size="small">
                            {t('removeDevice')}
                          </Button>
                        </Popconfirm>,
                      ]
                    : []
                }
              >
                <List.Item.Meta
                  title={`${d.sn} · ${d.model}`}
                  description={`${t('form.chargeCapacity')} ${d.chargeCapacity} · ${t('form.dischargeCapacity')} ${d.dischargeCapacity} · ${t('form.storageCapacity')} ${d.storageCapacity} · ${t(d.registered ? 'detail.registered' : 'detail.notRegistered')}`}
                />
              </List.Item>
            )}
          />
          {active && may(api.addDevices) && (
            <Button onClick={() => setAdding(true)} data-testid="dr-add-devices-open">
              {t('addDevices')}
            </Button>
          )}
          {adding && <AddDevices enrollment={e} onClose={() => setAdding(false)} />}
          {active && may(api.unenroll) && (
            <Popconfirm
              title={t('unenrolConfirm', { programme: e.programName })}
              onConfirm={async () => {
                await unenroll.mutateAsync({ params: { id: e.id } });
                await refresh();
              }}
            >
              <Button danger data-testid="dr-unenrol">
                {t('unenrol')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      )}
    </Drawer>
  );
}

export default function EnrollmentPlanPage() {
  const { t, i18n } = useTranslation('energyHub');
  const [page, setPage] = useState({ page: 1, size: 10 });
  const list = useEnrollments(page.page, page.size);
  const [enrolIn, setEnrolIn] = useState<Programme | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  const refresh = useRefresh();
  const dateFormat = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }), [i18n.language]);
  const columns = useMemo(
    () => [
      { title: t('columns.programme'), dataIndex: 'programName', key: 'programName', width: 200 },
      {
        title: t('columns.state'),
        dataIndex: 'state',
        key: 'state',
        width: 130,
        render: (s: EnrollmentRow['state']) => <Tag color={stateColour[s]}>{t(`state.${s}`)}</Tag>,
      },
      { title: t('columns.utilityAccount'), dataIndex: 'utilityAccount', key: 'utilityAccount', width: 160 },
      { title: t('columns.devices'), dataIndex: 'devices', key: 'devices', width: 100 },
      {
        title: t('columns.createdAt'),
        dataIndex: 'createdAt',
        key: 'createdAt',
        width: 150,
        render: (v: string) => dateFormat.format(new Date(v)),
      },
      {
        title: t('columns.actions'),
        key: 'actions',
        width: 120,
        fixed: 'right' as const,
        render: (_: unknown, r: EnrollmentRow) => (
          <Button type="link" onClick={() => setOpen(r.id)} data-testid={`dr-open-${r.id}`}>
            {t('details')}
          </Button>
        ),
      },
    ],
    [t, dateFormat],
  );
  return (
    <Flex vertical gap={16} data-testid="enrollment-plan-page">
      <Card>
        <PageTitle>{t('programmes')}</PageTitle>
        <Programmes onEnrol={setEnrolIn} />
      </Card>
      <Card>
        <Typography.Title level={4} className={`${ui.gapBelow} ${css.sectionTitle}`}>
          {t('enrolments')}
        </Typography.Title>
        {list.isError && !list.data ? (
          <PageError error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <ListTable<EnrollmentRow>
            aria-label={t('enrolments')}
            rowKey="id"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isPending}
            locale={{ emptyText: t('noEnrolments') }}
            pagination={{
              current: page.page,
              pageSize: page.size,
              total: list.data?.total ?? 0,
              onChange: (p, size) => setPage({ page: size !== page.size ? 1 : p, size }),
            }}
          />
        )}
      </Card>
      {enrolIn && (
        <EnrollForm
          programme={enrolIn}
          onClose={() => setEnrolIn(null)}
          onDone={(e) => {
            setEnrolIn(null);
            void message.success(t('form.done'));
            void refresh();
            setOpen(e.id);
          }}
        />
      )}
      <EnrollmentDrawer id={open} onClose={() => setOpen(null)} />
    </Flex>
  );
}
