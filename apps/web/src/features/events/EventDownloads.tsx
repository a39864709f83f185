/**
 * The .xlsx downloads of the filtered events: inverter events (`inverter.export`, a button of the
 * inverter page), battery events and events of every type (`event.export`). All take the list's
 * filters and the interface language (the device type only for "all"); a refused period disables
 * them.
 */
import { DownloadOutlined } from '@ant-design/icons';
import { type Endpoint, eventsApi } from '@sunfleet/contracts';
import { App, Flex, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useServerLanguage } from '../../api/hooks.ts';
import { downloadFile } from '../../components/download.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { useGranted, usePermission } from '../../components/Permission.tsx';
import { type EventCriteria, serverFilters } from './criteria.ts';

type Which = 'inverter' | 'battery' | 'all';
const endpoints = {
  inverter: eventsApi.inverterEventsDownload,
  battery: eventsApi.batteryEventsDownload,
  all: eventsApi.eventsDownload,
} as const satisfies Record<Which, Endpoint>;

export function EventDownloads({ criteria, timezone, blocked }: { criteria: EventCriteria; timezone: string; blocked: boolean }) {
  const { t } = useTranslation('events');
  const { message } = App.useApp();
  const lan = useServerLanguage();
  const granted = useGranted();
  const canExport = usePermission(eventsApi.eventsDownload.access);
  const allowed: Which[] = [];
  if (granted('inverter.export')) allowed.push('inverter');
  if (canExport) allowed.push('battery', 'all');
  if (allowed.length === 0) return null;

  const download = async (which: Which) => {
    // The device type filter belongs to the list: each typed file is of its own type; "all" keeps it.
    const { kind, ...filters } = serverFilters(criteria, timezone);
    const name = `events-${which}-${criteria.range.start}_${criteria.range.end}.xlsx`;
    try {
      if (which === 'all') await downloadFile(endpoints.all, { query: { ...filters, ...(kind ? { kind } : {}), lan } }, name);
      else await downloadFile(endpoints[which], { query: { ...filters, lan } }, name);
    } catch (err) {
      // A refusal the endpoint tolerates (4: the period) comes with the server's text; others
      // were already shown by the client.
      if (err instanceof ApiError && !err.tolerated) return;
      message.error(err instanceof ApiError && err.message ? err.message : t('download.failed'));
    }
  };

  return (
    <Flex gap={8} wrap data-testid="event-downloads">
      {allowed.map((which) => (
        <Tooltip key={which} title={blocked ? t('download.blocked') : t(which === 'all' ? 'download.allHint' : 'download.hint')}>
          <GuardedButton
            icon={<DownloadOutlined />}
            disabled={blocked}
            onClick={() => download(which)}
            data-testid={`event-download-${which}`}
          >
            {t(`download.${which}`)}
          </GuardedButton>
        </Tooltip>
      ))}
    </Flex>
  );
}
