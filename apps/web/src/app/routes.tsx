/**
 * The route table: every page of the portal, in one place. A page is filled
 * in by pointing `page` at its feature module; the shell builds the menu and the router
 * from this table and the caller's granted permission tree (`buildRoutes.ts`).
 *
 * - `permission`: the type-0 permission that keeps the route; only a hidden page may have none.
 * - `action`: the call a page exists to make (a form's save): the page is there only for a
 *   caller who may make it (`access.ts`: granted, and not a read-only account when it writes).
 * - `hidden`: not shown in the menu; kept when its `permission` and `action` allow. A route the
 *   caller may not open renders the 403 page when typed.
 * - `menuKey`: the menu entry highlighted on this page (plant sub-pages → /plants).
 * - `buttonsFrom`: the page whose granted buttons apply here (e.g. the plant overview).
 * - `ownCompany`: the page works on the caller's own company: kept only for an account of a
 *   company (an operator has none); on a group, its children go with it.
 */
import {
  BankOutlined,
  CloudUploadOutlined,
  ClusterOutlined,
  FileSearchOutlined,
  LineChartOutlined,
  SettingOutlined,
  SunOutlined,
  TeamOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { account, companyApi, type Endpoint, type PermissionName, plantsApi, upgradesApi } from '@sunfleet/contracts';
import type { ComponentType } from 'react';
import { type LazyPage, lazyPage } from './navigationActivity.ts';

export interface PageRoute {
  /** Absolute path; `:name` segments for parameters. */
  path: string;
  /** Key in the `menu` namespace: menu label and page title. */
  titleKey: string;
  permission?: PermissionName;
  action?: Pick<Endpoint, 'access' | 'writes'>;
  hidden?: boolean;
  icon?: ComponentType;
  page?: LazyPage;
  menuKey?: string;
  buttonsFrom?: string;
  /** Brand id (brands.ts) whose title this page carries, if not the host's brand. */
  brand?: string;
  ownCompany?: boolean;
  children?: PageRoute[];
}

const notFound = lazyPage(() => import('../features/static/NotFoundPage.tsx'));
const forbidden = lazyPage(() => import('../features/static/ForbiddenPage.tsx'));
const plantList = lazyPage(() => import('../features/plants/PlantListPage.tsx'));
const plantCreate = lazyPage(() => import('../features/plants/PlantCreatePage.tsx'));
const plantEdit = lazyPage(() => import('../features/plants/PlantEditPage.tsx'));
const accountSettings = lazyPage(() => import('../features/account/AccountPage.tsx'));

/** The signed-in menu routes, in menu order. */
export const menuRoutes: PageRoute[] = [
  { path: '/plants', titleKey: 'plants', permission: 'station.view', icon: SunOutlined, page: plantList },
  {
    path: '/plant-add',
    titleKey: 'plantAdd',
    permission: 'station.view',
    action: plantsApi.createPlant,
    hidden: true,
    page: plantCreate,
    menuKey: '/plants',
    buttonsFrom: 'station.view',
  },
  {
    path: '/plants/overview/:id/:type',
    titleKey: 'plantOverview',
    hidden: true,
    page: lazyPage(() => import('../features/overview/OverviewPage.tsx')),
    menuKey: '/plants',
    buttonsFrom: 'inverter.view',
  },
  {
    path: '/plants/edit/:id',
    titleKey: 'plantEdit',
    permission: 'station.view',
    action: plantsApi.editPlant,
    hidden: true,
    page: plantEdit,
    menuKey: '/plants',
    buttonsFrom: 'station.view',
  },
  {
    path: '/plants/transfers',
    titleKey: 'plantTransfers',
    hidden: true,
    page: lazyPage(() => import('../features/plants/TransfersPage.tsx')),
    menuKey: '/plants',
  },
  {
    path: '/plants/device/setting',
    titleKey: 'deviceSetting',
    hidden: true,
    page: lazyPage(() => import('../features/settings/PlantDeviceSettingPage.tsx')),
    menuKey: '/device/inverter',
    buttonsFrom: 'inverter.view',
  },
  { path: '/edit', titleKey: 'accountSettings', hidden: true, action: account.updateUser, page: accountSettings },
  {
    path: '/device',
    titleKey: 'devices',
    permission: 'equip.view',
    icon: ClusterOutlined,
    children: [
      {
        path: '/device/gateway',
        titleKey: 'gateways',
        permission: 'gateway.view',
        page: lazyPage(() => import('../features/devices/gateways/GatewayListPage.tsx')),
      },
      {
        path: '/device/inverter',
        titleKey: 'inverters',
        permission: 'inverter.view',
        page: lazyPage(() => import('../features/devices/inverters/InverterListPage.tsx')),
      },
      {
        path: '/device/battery',
        titleKey: 'batteries',
        permission: 'battery.list.view',
        page: lazyPage(() => import('../features/devices/batteries/BatteryListPage.tsx')),
      },
      {
        path: '/device/meter',
        titleKey: 'meters',
        permission: 'meter.view',
        page: lazyPage(() => import('../features/devices/meters/MeterListPage.tsx')),
      },
      {
        path: '/device/weather',
        titleKey: 'weatherStations',
        permission: 'weather.view',
        page: lazyPage(() => import('../features/devices/weather/WeatherListPage.tsx')),
      },
      // Device detail pages: hidden, the menu highlights their list; the page checks access.
      {
        path: '/device/gateway/:id',
        titleKey: 'devices:titles.gateway',
        hidden: true,
        page: lazyPage(() => import('../features/devices/gateways/GatewayDetailPage.tsx')),
        menuKey: '/device/gateway',
        buttonsFrom: 'gateway.view',
      },
      {
        path: '/device/inverter/:sn',
        titleKey: 'devices:titles.inverter',
        hidden: true,
        page: lazyPage(() => import('../features/devices/inverters/InverterDetailPage.tsx')),
        menuKey: '/device/inverter',
        buttonsFrom: 'inverter.view',
      },
      {
        path: '/device/battery/:sn',
        titleKey: 'devices:titles.battery',
        hidden: true,
        page: lazyPage(() => import('../features/devices/batteries/BatteryDetailPage.tsx')),
        menuKey: '/device/battery',
        buttonsFrom: 'battery.list.view',
      },
      {
        path: '/device/meter/:sn',
        titleKey: 'devices:titles.meter',
        hidden: true,
        page: lazyPage(() => import('../features/devices/meters/MeterDetailPage.tsx')),
        menuKey: '/device/meter',
        buttonsFrom: 'meter.view',
      },
      {
        path: '/device/weather/:sn',
        titleKey: 'devices:titles.weather',
        hidden: true,
        page: lazyPage(() => import('../features/devices/weather/WeatherDetailPage.tsx')),
        menuKey: '/device/weather',
        buttonsFrom: 'weather.view',
      },
      {
        path: '/device/event',
        titleKey: 'events',
        permission: 'event.view',
        page: lazyPage(() => import('../features/events/EventsPage.tsx')),
      },
      {
        path: '/device/setting',
        titleKey: 'deviceSetting',
        hidden: true,
        page: lazyPage(() => import('../features/settings/DeviceSettingPage.tsx')),
        menuKey: '/device/inverter',
        buttonsFrom: 'inverter.view',
      },
    ],
  },
  {
    path: '/energyHub',
    titleKey: 'energyHub',
    permission: 'application.center',
    icon: ThunderboltOutlined,
    children: [
      {
        path: '/energyHub/enrollmentPlan',
        titleKey: 'enrollmentPlan',
        permission: 'energyhub.view',
        page: lazyPage(() => import('../features/energy-hub/EnrollmentPlanPage.tsx')),
      },
      {
        path: '/energyHub/event',
        titleKey: 'energyHubEvents',
        permission: 'energyhub.view',
        page: lazyPage(() => import('../features/energy-hub/EnergyEventsPage.tsx')),
      },
    ],
  },
  {
    path: '/firmware',
    titleKey: 'firmware',
    permission: 'firmware.management',
    icon: CloudUploadOutlined,
    children: [
      {
        path: '/firmware/gate',
        titleKey: 'gatewayFirmware',
        permission: 'firmware.gateway.view',
        page: lazyPage(() => import('../features/firmware/GatewayFirmwarePage.tsx')),
      },
      {
        path: '/firmware/inv',
        titleKey: 'inverterFirmware',
        permission: 'firmware.inverter.view',
        page: lazyPage(() => import('../features/firmware/InverterFirmwarePage.tsx')),
      },
    ],
  },
  {
    // A rollout, opened from the upgrade action's result, a device's upgrade card or the firmware pages.
    path: '/firmware/rollout/:id',
    titleKey: 'upgradeRollout',
    hidden: true,
    action: upgradesApi.rollout,
    page: lazyPage(() => import('../features/upgrades/RolloutPage.tsx')),
  },
  {
    path: '/workdata/list',
    titleKey: 'operationData',
    permission: 'workdata.view',
    icon: LineChartOutlined,
    page: lazyPage(() => import('../features/workdata/WorkdataPage.tsx')),
  },
  {
    path: '/enterprise',
    titleKey: 'company',
    permission: 'company.management',
    ownCompany: true,
    icon: BankOutlined,
    children: [
      {
        path: '/enterprise/company',
        titleKey: 'companyInfo',
        permission: 'company.info',
        page: lazyPage(() => import('../features/enterprise/CompanyPage.tsx')),
      },
      {
        path: '/enterprise/user',
        titleKey: 'companyUsers',
        permission: 'company.user',
        page: lazyPage(() => import('../features/enterprise/UsersPage.tsx')),
      },
      {
        path: '/enterprise/roles',
        titleKey: 'roles',
        permission: 'company.role.list.view',
        page: lazyPage(() => import('../features/enterprise/RolesPage.tsx')),
      },
    ],
  },
  // Outside the system group: a company administrator reads their company's records here too.
  {
    path: '/management/audit',
    titleKey: 'auditLog',
    hidden: true,
    action: companyApi.adminAudit,
    page: lazyPage(() => import('../features/audit/AuditPage.tsx')),
    menuKey: '/enterprise/company',
  },
  {
    path: '/customer',
    titleKey: 'customers',
    permission: 'user.producer',
    icon: TeamOutlined,
    children: [
      {
        path: '/customer/list',
        titleKey: 'customerList',
        permission: 'customer.list.view',
        page: lazyPage(() => import('../features/customers/CustomersPage.tsx')),
      },
      {
        path: '/customer/type',
        titleKey: 'customerTypes',
        permission: 'customer.type.list.view',
        page: lazyPage(() => import('../features/customers/CustomerTypesPage.tsx')),
      },
    ],
  },
  {
    path: '/systemupdate',
    titleKey: 'systemUpdate',
    hidden: true,
    page: lazyPage(() => import('../features/versions/SystemUpdatePage.tsx')),
  },
  {
    path: '/log',
    titleKey: 'logs',
    permission: 'logger.management',
    icon: FileSearchOutlined,
    children: [
      {
        path: '/log/uphold',
        titleKey: 'maintenanceLog',
        permission: 'logger.upgrade.record',
        page: lazyPage(() => import('../features/maintenance/MaintenanceLogPage.tsx')),
      },
    ],
  },
  {
    path: '/management',
    titleKey: 'system',
    permission: 'system.management',
    icon: SettingOutlined,
    children: [
      {
        path: '/management/gateway',
        titleKey: 'systemGateways',
        permission: 'sys.gateway.view',
        page: lazyPage(() => import('../features/gateway-stock/GatewayStockPage.tsx')),
      },
      {
        path: '/management/status',
        titleKey: 'systemStatus',
        permission: 'system.management',
        page: lazyPage(() => import('../features/system/SystemStatusPage.tsx')),
      },
    ],
  },
];

/** A route of the table the caller may not open, typed in: the 403 page, at the typed path. */
export const forbiddenRoute: PageRoute = { path: '/403', titleKey: 'forbidden', hidden: true, page: forbidden };

/** Appended after the granted routes: any other signed-in path. */
export const notFoundRoute: PageRoute = { path: '*', titleKey: 'notFound', hidden: true, page: notFound };

/** Where `/` goes. */
export const homePath = '/plants';

/** Public pages (no login needed). Their titles are keys in the `menu` namespace too. */
export const publicRoutes: PageRoute[] = [
  { path: '/login', titleKey: 'login', page: lazyPage(() => import('../features/auth/LoginPage.tsx')) },
  {
    path: '/partner/login',
    titleKey: 'login',
    brand: 'partner',
    page: lazyPage(() => import('../features/auth/PartnerLoginPage.tsx')),
  },
  { path: '/reg', titleKey: 'register', page: lazyPage(() => import('../features/auth/RegisterPage.tsx')) },
  { path: '/forget', titleKey: 'forgetPassword', page: lazyPage(() => import('../features/auth/ForgetPasswordPage.tsx')) },
  {
    path: '/resetSuccessful',
    titleKey: 'resetSuccessful',
    page: lazyPage(() => import('../features/auth/ResetSuccessfulPage.tsx')),
  },
  { path: '/agreement', titleKey: 'agreement', page: lazyPage(() => import('../features/static/AgreementPage.tsx')) },
  {
    path: '/agreementen',
    titleKey: 'agreement',
    page: lazyPage(() => import('../features/static/AgreementEnglishPage.tsx')),
  },
  {
    path: '/register/userAgreement',
    titleKey: 'agreement',
    page: lazyPage(() => import('../features/static/AgreementPage.tsx')),
  },
  { path: '/app/download', titleKey: 'appDownload', page: lazyPage(() => import('../features/static/AppDownloadPage.tsx')) },
  {
    path: '/firmwareLogging',
    titleKey: 'firmwareLogging',
    page: lazyPage(() => import('../features/static/FirmwareLoggingPage.tsx')),
  },
  { path: '/403', titleKey: 'forbidden', page: forbidden },
];

/** Public pages a signed-in user may not see (they go to `/`). */
export const signedOutOnly = new Set(['/login', '/partner/login']);
