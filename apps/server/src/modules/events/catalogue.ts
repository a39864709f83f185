/**
 * Suggested actions per event code, in English and Spanish. Codes are the server rules'
 * (ingest's `ruleEvents`: offline, zeroOutput, batteryOverTemperature, counterImplausible) and the fault and
 * warning bits of the shipped protocols (packages/protocols). Battery pack codes carry their
 * pack (`pack3.cellOvervoltage`) and share one entry (`pack.cellOvervoltage`). Any other code
 * (a gateway-reported event, a SunSpec alarm) gets the advice of its level.
 */
import type { Language } from '@sunfleet/contracts';
import type { EventLevel } from '../../db/schema.ts';

interface Text {
  en: string;
  es: string;
}
const t = (en: string, es: string): Text => ({ en, es });

const INSTALLER = t('If it persists, contact your installer.', 'Si persiste, póngase en contacto con su instalador.');
const withInstaller = (text: Text): Text => ({ en: `${text.en} ${INSTALLER.en}`, es: `${text.es} ${INSTALLER.es}` });

export const actions: Readonly<Record<string, Text>> = {
  // server rules
  offline: withInstaller(
    t(
      'Check that the device is powered and its cable to the gateway is connected.',
      'Compruebe que el equipo tiene alimentación y que su cable a la pasarela está conectado.',
    ),
  ),
  'gateway.offline': withInstaller(
    t(
      'Check the gateway’s power and its internet connection (Wi-Fi, Ethernet or mobile signal), then restart it.',
      'Compruebe la alimentación de la pasarela y su conexión a internet (wifi, Ethernet o señal móvil) y reiníciela.',
    ),
  ),
  zeroOutput: withInstaller(
    t(
      'Check the PV breaker and DC isolator of this inverter, its display for faults, and the panels for shading or soiling.',
      'Compruebe el interruptor FV y el seccionador de CC de este inversor, su pantalla por si muestra fallos, y los paneles por sombras o suciedad.',
    ),
  ),
  counterImplausible: withInstaller(
    t(
      'The energy totals leave out this device’s implausible counter readings. Check the device’s energy counter on its display, and that the gateway reads it with the right register map.',
      'Los totales de energía excluyen las lecturas inverosímiles del contador de energía de este equipo. Compruebe el contador de energía en su pantalla y que la pasarela lo lee con el mapa de registros correcto.',
    ),
  ),
  batteryOverTemperature: withInstaller(
    t(
      'Make sure the battery room is ventilated and nothing blocks the vents; reduce charge and discharge power until it cools below 50 °C.',
      'Asegúrese de que el cuarto de baterías está ventilado y nada tapa las rejillas; reduzca la potencia de carga y descarga hasta que baje de 50 °C.',
    ),
  ),

  // inverters
  pvOvervoltage: t(
    'Disconnect the PV input and have the installer check the string design: its open-circuit voltage exceeds the inverter’s limit.',
    'Desconecte la entrada FV y pida al instalador que revise el diseño del string: su tensión en circuito abierto supera el límite del inversor.',
  ),
  pvInsulation: t(
    'Have the installer measure the insulation of the PV strings and cables to earth (often moisture or a damaged cable).',
    'Pida al instalador que mida el aislamiento a tierra de los strings y cables FV (suele ser humedad o un cable dañado).',
  ),
  leakageCurrent: withInstaller(
    t(
      'Check the PV cables and connectors for damage or moisture; the inverter retries automatically.',
      'Revise los cables y conectores FV por daños o humedad; el inversor reintenta automáticamente.',
    ),
  ),
  gridOvervoltage: withInstaller(
    t(
      'Grid voltage is above the limit; the inverter reconnects when it is back in range. If frequent, ask the grid operator to check the voltage or the installer to check the AC cable size.',
      'La tensión de red supera el límite; el inversor se reconecta al normalizarse. Si es frecuente, pida a la distribuidora que revise la tensión o al instalador que revise la sección del cable de CA.',
    ),
  ),
  gridUndervoltage: withInstaller(
    t(
      'Grid voltage is below the limit; check the AC breaker and the connection to the grid.',
      'La tensión de red está por debajo del límite; compruebe el interruptor de CA y la conexión a la red.',
    ),
  ),
  gridOverfrequency: withInstaller(
    t(
      'Grid frequency is above the limit; the inverter reconnects when it is back in range.',
      'La frecuencia de red supera el límite; el inversor se reconecta al normalizarse.',
    ),
  ),
  gridUnderfrequency: withInstaller(
    t(
      'Grid frequency is below the limit; the inverter reconnects when it is back in range.',
      'La frecuencia de red está por debajo del límite; el inversor se reconecta al normalizarse.',
    ),
  ),
  gridFrequency: withInstaller(
    t(
      'Grid frequency is out of range; the micro-inverter reconnects when it is back in range.',
      'La frecuencia de red está fuera de rango; el microinversor se reconecta al normalizarse.',
    ),
  ),
  islanding: withInstaller(
    t(
      'The grid is missing: check the AC breaker and whether there is a power cut in the area.',
      'No hay red: compruebe el interruptor de CA y si hay un corte de suministro en la zona.',
    ),
  ),
  acOvercurrent: withInstaller(
    t(
      'Restart the inverter; check the AC wiring and loads for a short circuit.',
      'Reinicie el inversor; revise el cableado de CA y las cargas por si hay un cortocircuito.',
    ),
  ),
  dcOvercurrent: withInstaller(
    t(
      'Check the PV string configuration and connectors; restart the inverter.',
      'Revise la configuración de los strings FV y los conectores; reinicie el inversor.',
    ),
  ),
  busOvervoltage: withInstaller(
    t(
      'Restart the inverter (turn AC and DC off, wait five minutes, turn them on).',
      'Reinicie el inversor (apague CA y CC, espere cinco minutos y vuelva a encender).',
    ),
  ),
  overTemperature: withInstaller(
    t(
      'Make sure the inverter is shaded, has free space around it and its fans and heat sink are clean.',
      'Asegúrese de que el inversor está a la sombra, tiene espacio libre alrededor y sus ventiladores y disipador están limpios.',
    ),
  ),
  relayFailure: t(
    'Restart the inverter; if the fault returns, the grid relay needs service: contact your installer.',
    'Reinicie el inversor; si el fallo vuelve, el relé de red necesita reparación: póngase en contacto con su instalador.',
  ),
  batteryOvervoltage: withInstaller(
    t(
      'Check the battery settings (type, charge voltage) against the battery’s datasheet.',
      'Compruebe los ajustes de batería (tipo, tensión de carga) con la hoja de datos de la batería.',
    ),
  ),
  batteryUndervoltage: withInstaller(
    t(
      'Let the battery charge (from PV or grid); check the discharge cut-off setting.',
      'Deje que la batería se cargue (desde FV o red); compruebe el ajuste de corte de descarga.',
    ),
  ),
  batteryOvercurrent: withInstaller(
    t(
      'Reduce the battery charge and discharge current limits; check the battery cables.',
      'Reduzca los límites de corriente de carga y descarga; revise los cables de la batería.',
    ),
  ),
  bmsCommunicationLost: withInstaller(
    t(
      'Check the communication cable between battery and inverter and that the battery is switched on.',
      'Compruebe el cable de comunicación entre batería e inversor y que la batería está encendida.',
    ),
  ),
  batteryReversed: t(
    'Switch the battery off at once and have the installer correct the polarity of its cables.',
    'Apague la batería de inmediato y pida al instalador que corrija la polaridad de sus cables.',
  ),
  epsOverload: withInstaller(
    t('Reduce the loads on the backup output and restart it.', 'Reduzca las cargas de la salida de respaldo y reiníciela.'),
  ),
  arcFault: t(
    'Turn the DC side off and have the installer inspect the PV connectors and cables for arcing before restarting; then clear the arc fault remotely.',
    'Apague el lado de CC y pida al instalador que inspeccione conectores y cables FV por arcos antes de volver a arrancar; después borre el fallo de arco a distancia.',
  ),
  internalCommunication: withInstaller(t('Restart the inverter.', 'Reinicie el inversor.')),
  eepromFailure: withInstaller(t('Restart the inverter.', 'Reinicie el inversor.')),
  fanWarning: withInstaller(
    t('Check the fans for dirt or obstructions.', 'Revise los ventiladores por suciedad u obstrucciones.'),
  ),
  meterCommunicationLost: withInstaller(
    t(
      'Check the cable between the energy meter and the inverter, and the meter’s power.',
      'Compruebe el cable entre el medidor y el inversor, y la alimentación del medidor.',
    ),
  ),
  batteryLowSoc: t(
    'No action needed if it recovers with the next sun; otherwise check the battery’s reserve settings.',
    'No hace falta actuar si se recupera con el próximo sol; si no, revise los ajustes de reserva de la batería.',
  ),
  bmsWarning: withInstaller(
    t('Check the battery’s own display or indicator lights.', 'Revise la pantalla o los indicadores de la propia batería.'),
  ),
  gridLost: t(
    'The grid is down and the backup output supplies the loads; keep consumption low until the grid returns.',
    'La red ha caído y la salida de respaldo alimenta las cargas; reduzca el consumo hasta que vuelva la red.',
  ),
  derating: withInstaller(
    t('Improve the inverter’s ventilation and shading.', 'Mejore la ventilación y la sombra del inversor.'),
  ),
  parallelCommunication: withInstaller(
    t(
      'Check the parallel communication cables between the inverters.',
      'Revise los cables de comunicación en paralelo entre los inversores.',
    ),
  ),
  stringReversed: t(
    'Turn the DC side off and have the installer correct the polarity of the reversed string.',
    'Apague el lado de CC y pida al instalador que corrija la polaridad del string invertido.',
  ),
  groundFault: t(
    'Have the installer check the panel and cable insulation to earth.',
    'Pida al instalador que revise el aislamiento a tierra de paneles y cables.',
  ),
  panelMismatch: withInstaller(
    t(
      'Check the panels on this micro-inverter for shading, soiling or damage.',
      'Revise los paneles de este microinversor por sombras, suciedad o daños.',
    ),
  ),

  // battery packs
  'pack.cellOvervoltage': withInstaller(
    t(
      'Stop charging; the BMS limits it. Check the charge voltage setting.',
      'Detenga la carga; el BMS la limita. Revise el ajuste de tensión de carga.',
    ),
  ),
  'pack.cellUndervoltage': withInstaller(
    t(
      'Charge the battery as soon as possible; avoid discharging it further.',
      'Cargue la batería cuanto antes; evite descargarla más.',
    ),
  ),
  'pack.overTemperature': withInstaller(
    t(
      'Ventilate the battery room and reduce charge and discharge power.',
      'Ventile el cuarto de baterías y reduzca la potencia de carga y descarga.',
    ),
  ),
  'pack.underTemperature': t(
    'Charging is limited in the cold; it resumes when the cells warm up (enable cell heating if available).',
    'La carga se limita con frío; se reanuda cuando las celdas se calientan (active la calefacción de celdas si la hay).',
  ),
  'pack.chargeOvercurrent': withInstaller(
    t(
      'Lower the charge current limit in the battery settings.',
      'Baje el límite de corriente de carga en los ajustes de batería.',
    ),
  ),
  'pack.dischargeOvercurrent': withInstaller(
    t('Reduce the loads or lower the discharge current limit.', 'Reduzca las cargas o baje el límite de corriente de descarga.'),
  ),
  'pack.shortCircuit': t(
    'Switch the battery off at once and contact your installer; do not restart it before it is inspected.',
    'Apague la batería de inmediato y contacte con su instalador; no la vuelva a encender antes de revisarla.',
  ),
  'pack.communicationLost': withInstaller(
    t(
      'Check the link cable between the packs and that every pack is switched on.',
      'Compruebe el cable de enlace entre módulos y que todos están encendidos.',
    ),
  ),
  'pack.cellImbalance': withInstaller(
    t(
      'Let the battery reach a full charge so the BMS can balance the cells.',
      'Deje que la batería llegue a carga completa para que el BMS equilibre las celdas.',
    ),
  ),
  'pack.lowSoh': t(
    'The pack has lost capacity; plan its replacement with your installer.',
    'El módulo ha perdido capacidad; planifique su sustitución con su instalador.',
  ),

  // meters
  phaseLoss: withInstaller(
    t('Check the meter’s voltage connections on every phase.', 'Revise las conexiones de tensión del medidor en cada fase.'),
  ),
  reversedCurrent: t(
    'Have the installer turn the current transformer round (the arrow points to the grid) or swap its wires.',
    'Pida al instalador que gire el transformador de corriente (la flecha hacia la red) o intercambie sus cables.',
  ),
  phaseSequence: t(
    'Have the installer correct the phase order of the meter’s wiring.',
    'Pida al instalador que corrija el orden de fases del cableado del medidor.',
  ),

  // weather stations
  irradianceSensor: withInstaller(
    t('Clean the irradiance sensor and check its cable.', 'Limpie el sensor de irradiancia y revise su cable.'),
  ),
  moduleTemperatureSensor: withInstaller(
    t(
      'Check that the module temperature sensor is attached and its cable intact.',
      'Compruebe que el sensor de temperatura del módulo está fijado y su cable intacto.',
    ),
  ),
  ambientTemperatureSensor: withInstaller(
    t('Check the ambient temperature sensor and its cable.', 'Revise el sensor de temperatura ambiente y su cable.'),
  ),
  anemometer: withInstaller(
    t('Check that the anemometer turns freely and its cable.', 'Compruebe que el anemómetro gira libremente y su cable.'),
  ),
  hygrometer: withInstaller(t('Check the hygrometer and its cable.', 'Revise el higrómetro y su cable.')),
};

const byLevel: Readonly<Record<EventLevel, Text>> = {
  fault: t(
    'Check the device’s display or indicator lights and restart it if safe. If the fault persists, contact your installer.',
    'Revise la pantalla o los indicadores del equipo y reinícielo si es seguro. Si el fallo persiste, contacte con su instalador.',
  ),
  warning: t(
    'Keep an eye on the device; if the warning persists or repeats, contact your installer.',
    'Vigile el equipo; si la advertencia persiste o se repite, contacte con su instalador.',
  ),
  info: t('No action needed.', 'No es necesario actuar.'),
};

const PACK_CODE = /^pack(\d+)\.(.+)$/;

/** The battery pack (1 = master) of a pack-level code, or null. */
export function packOf(code: string): number | null {
  const m = PACK_CODE.exec(code);
  return m ? Number(m[1]) : null;
}

/** The catalogue key of a code: pack codes share one entry; a gateway's own offline has its own. */
export function actionKey(code: string, subject: 'device' | 'gateway' = 'device'): string {
  if (code === 'offline' && subject === 'gateway') return 'gateway.offline';
  const m = PACK_CODE.exec(code);
  return m ? `pack.${m[2]}` : code;
}

/** The suggested action for an event, in `lan`. */
export function suggestedAction(
  code: string,
  level: EventLevel,
  lan: Language,
  subject: 'device' | 'gateway' = 'device',
): string {
  const text = actions[actionKey(code, subject)] ?? byLevel[level] ?? byLevel.warning;
  return text[lan];
}
