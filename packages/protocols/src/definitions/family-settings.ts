// Setting fields several families share: grid trip limits with their clearing times, fixed
// power factor and reactive power (SunSpec immediate controls, model 123), frequency-watt
// derating (SunSpec model 134) and "no action / do it" commands.
import type { LocalizedText } from '../definition.ts';
import { disabledEnabled, type RegisterMap, text } from './build.ts';

export const noAction = (en: string, es: string): Record<number, LocalizedText> => ({
  0: text('No action', 'Sin acción'),
  1: text(en, es),
});

export const seconds = (max: number) => ({ unit: 's', min: 0, max }) as const;
export const tripTime = { unit: 's', scale: 0.01, min: 0, max: 60, step: 0.01 } as const;
export const volts = (min: number, max: number) => ({ unit: 'V', scale: 0.1, min, max, step: 0.1 }) as const;
/** A share of rated power in tenths of a percent (SunSpec WMaxLimPct), up to `max` %. */
export const percentOfRated = (max = 100) => ({ unit: '%', scale: 0.1, min: 0, max, step: 0.1 }) as const;
export const hertz = (min: number, max: number) => ({ unit: 'Hz', scale: 0.01, min, max, step: 0.01 }) as const;

/** `<prefix>` trip limit then its clearing time, for each of the given limits. */
export function tripLimits(
  map: RegisterMap,
  limits: readonly (readonly [key: string, en: string, es: string, unit: 'V' | 'Hz', min: number, max: number])[],
  withTimes = true,
): RegisterMap {
  for (const [key, en, es, unit, min, max] of limits) {
    map.setting(key, [en, es], 'u16', unit === 'V' ? volts(min, max) : hertz(min, max));
    if (withTimes) map.setting(`${key}Time`, [`${en}: clearing time`, `${es}: tiempo de disparo`], 'u16', tripTime);
  }
  return map;
}

/** OutPFSet_Ena, OutPFSet (−1..1 in thousandths), VArPct_Ena, VArWMaxPct (tenths of a percent). */
export function powerFactorControls(map: RegisterMap): RegisterMap {
  return map
    .setting('powerFactorEnabled', ['Fixed power factor', 'Factor de potencia fijo'], 'enum', { enum: disabledEnabled })
    .setting('powerFactorSetpoint', ['Power factor setpoint', 'Consigna de factor de potencia'], 's16', {
      scale: 0.001,
      min: -1,
      max: 1,
      step: 0.001,
    })
    .setting('reactiveEnabled', ['Fixed reactive power', 'Potencia reactiva fija'], 'enum', { enum: disabledEnabled })
    .setting('reactivePowerSetpoint', ['Reactive power setpoint', 'Consigna de potencia reactiva'], 's16', {
      unit: '%',
      scale: 0.1,
      min: -60,
      max: 60,
      step: 0.1,
    });
}

/** Frequency-watt: start frequency, gradient (% of rated power per Hz), stop frequency, recovery delay. */
export function frequencyWatt(map: RegisterMap): RegisterMap {
  return map
    .setting('freqWattEnabled', ['Over-frequency derating', 'Reducción por sobrefrecuencia'], 'enum', { enum: disabledEnabled })
    .setting('freqWattStart', ['Derating start frequency', 'Frecuencia de inicio de reducción'], 'u16', hertz(50, 55))
    .setting('freqWattGradient', ['Derating gradient', 'Pendiente de reducción'], 'u16', {
      unit: '%/Hz',
      scale: 0.1,
      min: 2,
      max: 100,
      step: 0.1,
    })
    .setting('freqWattStop', ['Derating stop frequency', 'Frecuencia de fin de reducción'], 'u16', hertz(50, 55))
    .setting('freqWattRecoveryDelay', ['Recovery delay', 'Retardo de recuperación'], 'u16', seconds(600));
}
