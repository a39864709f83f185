/** Server data of the system update page: the version timeline, saving, checking and deleting a version. */
import { versionsApi } from '@sunfleet/contracts';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { call } from '../../api/client.ts';
import { endpointKey, useApiMutation, useApiQuery } from '../../api/hooks.ts';

/** A page of the version timeline (the page before stays shown while the next loads). */
export function useVersionTimeline(page: number, size: number) {
  return useApiQuery(versionsApi.versionTimeline, { query: { page, size } }, { placeholderData: keepPreviousData });
}

export function useDeleteVersion() {
  return useApiMutation(versionsApi.deleteVersion);
}

export function useSaveVersion() {
  return useApiMutation(versionsApi.saveVersion);
}

/** After a change: every version answer (timeline, list, current, latest) asked again. */
export function useRefreshVersions() {
  const client = useQueryClient();
  return useCallback(
    () =>
      Promise.all(
        [versionsApi.versionTimeline, versionsApi.listVersions, versionsApi.currentVersion, versionsApi.latestVersion].map((ep) =>
          client.invalidateQueries({ queryKey: endpointKey(ep) }),
        ),
      ),
    [client],
  );
}

/** Resolves when `number` is free (for another version than `id`); an ApiError when taken. */
export function checkVersionNumber(number: string, id?: number) {
  return call(versionsApi.checkVersion, { query: { number, ...(id !== undefined ? { id } : {}) }, quiet: true });
}
