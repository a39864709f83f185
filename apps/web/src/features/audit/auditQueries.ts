/** Server data of the audit log: a page of entries under the criteria in the address. */
import { companyApi, type QueryOf } from '@sunfleet/contracts';
import { useApiQuery } from '../../api/hooks.ts';

export function useAuditLog(query: QueryOf<typeof companyApi.adminAudit>) {
  return useApiQuery(companyApi.adminAudit, { query });
}
