/** The company pages' server data: the company, its roles, its accounts; and keeping the shell's profile in step. */
import { companyApi, companyRolesApi, type DataOf } from '@sunfleet/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { endpointKey, useApiQuery, useProfileUpdater } from '../../api/hooks.ts';
import { useShell } from '../../app/shell/shellContext.ts';

export type CompanyInfo = DataOf<typeof companyApi.companyInfo>;
export type CompanyUser = DataOf<typeof companyApi.getCompanyUser>;
export type CompanyRole = DataOf<typeof companyRolesApi.getRole>;

export const useCompany = () => useApiQuery(companyApi.companyInfo, { query: {} });
export const useRoles = (enabled = true) => useApiQuery(companyRolesApi.listRoles, {}, { enabled });

/** After a change of the company: the page's copy, and the shell's logo, name and colour when it is the caller's company. */
export function useCompanyChanged() {
  const client = useQueryClient();
  const { profile } = useShell();
  const storeProfile = useProfileUpdater();
  return useCallback(
    (next: CompanyInfo) => {
      client.setQueryData(endpointKey(companyApi.companyInfo, { query: {} }), next);
      if (profile.company?.id === next.id)
        storeProfile({
          ...profile,
          company: { id: next.id, name: next.name, logoUrl: next.logoUrl, iconUrl: next.iconUrl, themeColor: next.themeColor },
        });
    },
    [client, profile, storeProfile],
  );
}

/** Lists that show accounts or roles are asked again after a change. */
export function useInvalidate() {
  const client = useQueryClient();
  return useCallback(
    (...eps: Array<{ method: string; path: string }>) => {
      for (const ep of eps) void client.invalidateQueries({ queryKey: [ep.method, ep.path] });
    },
    [client],
  );
}
