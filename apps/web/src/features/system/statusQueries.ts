/** Server data of the system status page: the process's figures, polled every few seconds. */
import { type DataOf, systemApi } from '@sunfleet/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useApiQuery } from '../../api/hooks.ts';

export type SystemStatus = DataOf<typeof systemApi.status>;

/** How often the page asks again. */
export const POLL_MS = 5000;

export function useSystemStatus() {
  return useApiQuery(
    systemApi.status,
    { quiet: true },
    { refetchInterval: POLL_MS, placeholderData: keepPreviousData, staleTime: 0 },
  );
}

export interface Rates {
  received: number;
  stored: number;
  refused: number;
  requests: number;
}

/** Per-second rates between the last two snapshots (null until there are two). */
export function useRates(status: SystemStatus | undefined): Rates | null {
  const previous = useRef<SystemStatus | null>(null);
  const [rates, setRates] = useState<Rates | null>(null);
  useEffect(() => {
    if (!status) return;
    const before = previous.current;
    previous.current = status;
    if (!before || before.at === status.at) return;
    const seconds = (Date.parse(status.at) - Date.parse(before.at)) / 1000;
    if (seconds <= 0) return;
    const per = (now: number | undefined, then: number | undefined) => Math.max(0, ((now ?? 0) - (then ?? 0)) / seconds);
    setRates({
      received: per(status.ingest?.received, before.ingest?.received),
      stored: per(status.ingest?.stored, before.ingest?.stored),
      refused: per(status.ingest?.refusedTotal, before.ingest?.refusedTotal),
      requests: per(status.http.requests, before.http.requests),
    });
  }, [status]);
  return rates;
}
