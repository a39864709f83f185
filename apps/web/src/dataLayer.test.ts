/**
 * One data layer: server calls (`useApiQuery`, `useApiMutation`, TanStack's `useQuery`,
 * `useMutation`, `useInfiniteQuery`, `useQueries`, the client's `call`, `fetch`) are made only in
 * `api/` and in a feature's queries file (`queries.ts` or `<name>Queries.ts`), as named hooks and
 * functions; components and pages call those. The files listed below still make their own calls:
 * a new one fails this test, and a listed file that no longer does must leave the list.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Files (below src/) that still call the server themselves; the list only shrinks. */
const remaining = [
  'app/shell/ShellLayout.tsx',
  'components/CustomerSelect.tsx',
  'components/GatewayRestart.tsx',
  'components/PlantSelect.tsx',
  'components/UpgradeAction.tsx',
  'components/UpgradeProgress.tsx',
  'components/download.ts',
  'features/account/AvatarUpload.tsx',
  'features/account/MyPlants.tsx',
  'features/account/NotificationSetting.tsx',
  'features/account/PasswordForm.tsx',
  'features/account/ProfileForm.tsx',
  'features/auth/ForgetPasswordPage.tsx',
  'features/auth/LoginForm.tsx',
  'features/auth/RegisterPage.tsx',
  'features/auth/useVerificationCode.ts',
  'features/customers/CustomerDialog.tsx',
  'features/customers/CustomerTypesPage.tsx',
  'features/customers/CustomersPage.tsx',
  'features/customers/TypeDialog.tsx',
  'features/enterprise/BrandCard.tsx',
  'features/enterprise/CompanyPage.tsx',
  'features/enterprise/RoleDialog.tsx',
  'features/enterprise/RolesPage.tsx',
  'features/enterprise/UserDialog.tsx',
  'features/enterprise/UsersPage.tsx',
  'features/firmware/FirmwareDrawer.tsx',
  'features/firmware/FirmwareList.tsx',
  'features/firmware/InverterTypesTab.tsx',
  'features/firmware/ProductsTab.tsx',
  'features/firmware/UploadDialog.tsx',
  'features/gateway-stock/CreateDialog.tsx',
  'features/gateway-stock/EditDialogs.tsx',
  'features/gateway-stock/ImportWizard.tsx',
  'features/maintenance/EntryDrawer.tsx',
  'features/maintenance/MaintenanceLogPage.tsx',
  'features/overview/ForecastUpload.tsx',
  'features/overview/WeatherStations.tsx',
  'features/overview/exportOverview.ts',
  'features/plants/ExportEnergy.tsx',
  'features/plants/Gateway.tsx',
  'features/plants/OpenAlarms.tsx',
  'features/plants/PictureField.tsx',
  'features/plants/PlantCreatePage.tsx',
  'features/plants/PlantEditPage.tsx',
  'features/plants/PlantListPage.tsx',
  'features/plants/PlantMap.tsx',
  'features/plants/ShareDialog.tsx',
  'features/plants/TransferDialog.tsx',
  'features/plants/TransfersPage.tsx',
  'features/plants/useDeletePlants.tsx',
];

const root = import.meta.dirname;
const HOOK_CALL =
  /\b(useApiQuery|useApiMutation|useQuery|useMutation|useInfiniteQuery|useQueries|useSuspenseQuery)\s*(<[^>]*>)?\(/;
const CLIENT_CALL = /import\s*\{[^}]*\bcall\b[^}]*\}\s*from\s*'[^']*\/api\/client\.ts'/;
const FETCH = /(^|[^.\w])fetch\(/m;

/** Whether a file may call the server: the API client and hooks, and queries files. */
export const mayCall = (file: string) => file.startsWith('api/') || /(^|\/)([a-z][A-Za-z]*Queries|queries)\.ts$/.test(file);

/** Whether a source text calls the server itself. */
export function callsServer(text: string): boolean {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return HOOK_CALL.test(code) || CLIENT_CALL.test(code) || FETCH.test(code);
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' && dir === root ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('data layer', () => {
  it('finds hook calls, the client imported for `call`, and fetch; not words in comments', () => {
    expect(callsServer('const q = useApiQuery(plantsApi.listPlants, { query });')).toBe(true);
    expect(callsServer('const m = useMutation<Data, ApiError>({ mutationFn });')).toBe(true);
    expect(callsServer("import { ApiError, call } from '../../api/client.ts';")).toBe(true);
    expect(callsServer('const r = await fetch(url);')).toBe(true);
    expect(callsServer("import { ApiError } from '../../api/client.ts';\n// useApiQuery( in a comment")).toBe(false);
    expect(callsServer('const q = usePlantList(filters); client.prefetch(x);')).toBe(false);
    expect(mayCall('features/devices/shared/deviceQueries.ts')).toBe(true);
    expect(mayCall('features/energy-hub/queries.ts')).toBe(true);
    expect(mayCall('features/devices/shared/DeviceTable.tsx')).toBe(false);
  });

  it('server calls stand only in api/ and queries files (the remaining list is exact)', () => {
    const found = sources(root)
      .map((file) => path.relative(root, file).split(path.sep).join('/'))
      .filter((file) => !mayCall(file) && callsServer(fs.readFileSync(path.join(root, file), 'utf8')))
      .sort();
    // A file not listed calls the server itself: move its calls into its feature's queries file
    // as named hooks. A listed file that no longer does leaves the list.
    expect(found).toEqual([...remaining].sort());
  });
});
