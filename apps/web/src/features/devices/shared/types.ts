/** Row and detail types of the device pages, taken from the contracts (never re-declared). */
import type { DataOf, devicesApi, plantEnergyApi } from '@sunfleet/contracts';

export type GatewayRow = DataOf<typeof devicesApi.listGateways>['list'][number];
export type InverterRow = DataOf<typeof devicesApi.listInverters>['list'][number];
export type BatteryRow = DataOf<typeof devicesApi.listBatteries>['list'][number];
export type MeterRow = DataOf<typeof devicesApi.listMeters>['list'][number];
export type WeatherRow = DataOf<typeof devicesApi.listWeatherStations>['list'][number];

export type DeviceCounts = DataOf<typeof devicesApi.inverterCount>;
export type GatewayCounts = DataOf<typeof devicesApi.gatewayCount>;
export type DeviceStatus = InverterRow['status'];

export type GatewayDetail = DataOf<typeof devicesApi.getGateway>;
export type InverterDetail = DataOf<typeof devicesApi.getInverter>;

/** What an inverter page's tab is given: the inverter, its plant's time zone and today there. */
export interface InverterTabProps {
  inverter: InverterDetail;
  timezone: string;
  today: string;
}
export type BatteryInfo = DataOf<typeof devicesApi.batteryInfo>;
export type BatteryRealtime = DataOf<typeof devicesApi.batteryRealtime>;
export type BatteryPack = BatteryRealtime['packs'][number];
export type BatteryCell = BatteryRealtime['cells'][number];
export type MeterRealtime = DataOf<typeof devicesApi.meterRealtime>;

export type FieldValue = InverterDetail['info'][number];
export type ActiveFault = InverterDetail['faults'][number];
export type Phase = MeterRealtime['phases'][number];
export type DayChart = DataOf<typeof devicesApi.batteryDay>;
export type DayChartWithEnergy = DataOf<typeof devicesApi.meterDay>;
export type EnergyBars = DataOf<typeof devicesApi.meterMonth>;
export type EnergyKey = Exclude<keyof EnergyBars['totals'], 'peakPower'>;
export type GenerationBars = DataOf<typeof devicesApi.inverterGen>;
export type MicroGeneration = DataOf<typeof devicesApi.inverterGenMi>;
export type MicroPanel = MicroGeneration['panels'][number];
export type InputRealtime = DataOf<typeof devicesApi.inverterInputRealtime>;
export type OutputRealtime = DataOf<typeof devicesApi.inverterOutputRealtime>;
export type PvIv = DataOf<typeof devicesApi.inverterPvIv>;
export type GroupRealtime = DataOf<typeof devicesApi.inverterGroupRealtime>;
export type InverterParams = DataOf<typeof devicesApi.inverterParams>;
export type SavedProfile = DataOf<typeof devicesApi.inverterParamProfiles>[number];
export type WeatherNow = DataOf<typeof plantEnergyApi.weatherStationRealtime>;
export type WeatherDay = DataOf<typeof plantEnergyApi.weatherStationDay>;

/** Device kinds with a detail page. */
export type DetailKind = 'inverter' | 'battery' | 'meter' | 'weather';
/** Where a device's detail page is. */
export const detailPath = (kind: DetailKind, sn: string) => `/device/${kind}/${encodeURIComponent(sn)}`;
export const gatewayPath = (id: number) => `/device/gateway/${id}`;
export const plantPath = (id: number) => `/plants/overview/${id}/1`;
