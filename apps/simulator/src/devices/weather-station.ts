// Weather station beside the array: plane-of-array irradiance, module and ambient
// temperature, wind, humidity, and the day's irradiation.
import type { InputValue } from '@sunfleet/protocols';
import { EnergyCounter } from '../physics/energy.ts';
import { type DeviceContext, type Environment, round, VirtualDevice } from './device.ts';

export interface WeatherSpec {
  kind: 'weather';
  sn: string;
  unit?: number;
}

export class WeatherStation extends VirtualDevice {
  readonly kind = 'weather';
  private readonly irradiation = new EnergyCounter();
  private poa = 0;

  constructor(
    readonly spec: WeatherSpec,
    context: DeviceContext,
  ) {
    super(spec.sn, 'sunfleet-weather', spec.unit ?? 4, context, { modbusAddress: spec.unit ?? 4, sampleInterval: 10 });
  }

  record(env: Environment): void {
    this.poa = env.irradiance.poa;
    // W/m² integrated as if it were W: kWh/m².
    this.irradiation.sample(env.t, this.poa, env.localDay);
  }

  protected nameplate(): Record<string, InputValue> {
    return { serialNumber: this.sn, firmware: '01 05' };
  }

  protected readings(env: Environment): Record<string, InputValue> {
    const { t, weather } = env;
    const broken = new Set(this.faults.active);
    return {
      irradiance: broken.has('irradianceSensor') ? 0 : Math.round(Math.max(0, this.poa * (1 + this.jitter(t, 1, 0.01)))),
      moduleTemperature: round(env.cellC, 1),
      ambientTemperature: round(weather.ambientC, 1),
      windSpeed: broken.has('anemometer') ? 0 : round(weather.windMs, 1),
      windDirection: Math.round(weather.windDirection) % 360,
      humidity: round(weather.humidity, 1),
      dailyIrradiation: this.irradiation.todayKwh,
    };
  }
}
