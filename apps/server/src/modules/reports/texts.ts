/** Texts of the reports and of the forecast upload's messages, in the request language (en, es). */
import { type Language, limits, plantEnergyApi } from '@sunfleet/contracts';

export const { REPORT_MAX_PLANTS, FORECAST_MAX_BYTES, FORECAST_MAX_ROWS } = plantEnergyApi;

const mb = FORECAST_MAX_BYTES / (1024 * 1024);

const en = {
  energyTitle: (start: string, end: string) => `Energy report ${start} – ${end}`,
  summarySheet: 'Summary',
  dailySheet: 'Daily',
  plant: 'Plant',
  timezone: 'Time zone',
  capacity: 'Capacity (kWp)',
  daysWithData: 'Days with data',
  date: 'Date',
  generation: 'Generation (kWh)',
  consumption: 'Consumption (kWh)',
  gridImport: 'Grid import (kWh)',
  gridExport: 'Grid export (kWh)',
  charge: 'Battery charge (kWh)',
  discharge: 'Battery discharge (kWh)',
  income: 'Income',
  incomeIn: (currency: string | null) => (currency ? `Income (${currency})` : 'Income'),
  currency: 'Currency',
  fullLoadHours: 'Full-load hours (h)',
  peakPower: 'Peak power (kW)',
  // generation download
  generationSheet: 'Generation',
  generationTitle: (plant: string, period: string, date: string, zone: string) =>
    period === 'day'
      ? `${plant} – power on ${date} (${zone})`
      : period === 'total'
        ? `${plant} – generation by year`
        : `${plant} – generation ${period === 'month' ? date.slice(0, 7) : date.slice(0, 4)}`,
  time: 'Time',
  pv: 'PV power (W)',
  load: 'Load (W)',
  grid: 'Grid (W, + import / − export)',
  battery: 'Battery (W, + discharge / − charge)',
  soc: 'SOC (%)',
  forecast: 'Forecast (W)',
  label: { day: 'Time', month: 'Day', year: 'Month', total: 'Year' } as Record<string, string>,
  energy: 'Energy (kWh)',
  total: 'Total',
  // messages (after "Invalid input: ")
  tooManyPlants: `at most ${REPORT_MAX_PLANTS} plants per report`,
  notADate: (field: string) => `${field} is not a calendar date`,
  order: 'endDate must not be before startDate',
  tooLong: (days: number) => `the date range is limited to ${limits.dateRangeDays} days (${days} days asked)`,
  future: (max: string) => `endDate must not be after ${max}`,
  plantIdMissing: 'field "plantId" must be a plant id',
  fileMissing: 'field "file" with the workbook is required',
  fileTooLarge: `the file is larger than ${mb} MB`,
  xls: 'this is a legacy Excel 97–2003 workbook (.xls), which is not accepted; open it in Excel or LibreOffice and save it as .xlsx',
  encrypted: 'the workbook is password-protected; remove the password and upload it again',
  notXlsx: 'the file is not an Excel workbook (.xlsx)',
  damaged: 'the workbook is damaged or too large when unpacked',
  noRows: 'the first sheet has no forecast rows',
  tooManyRows: (row: number) => `more than ${FORECAST_MAX_ROWS} forecast rows (row ${row})`,
  badTime: (row: number) => `row ${row}: column A must be a date cell or a time written "YYYY-MM-DD HH:mm"`,
  badPower: (row: number) => `row ${row}: column B must be a power of 0 or more (W, or kW when the header says kW)`,
  repeated: (row: number, first: number) => `row ${row}: the same time as row ${first}`,
  skipped: (row: number, time: string, zone: string, other: number) =>
    `row ${row}: ${time} does not exist in ${zone} (the clock skips it) and would fall on the time of row ${other}`,
};

const es: typeof en = {
  energyTitle: (start, end) => `Informe de energía ${start} – ${end}`,
  summarySheet: 'Summary',
  dailySheet: 'Daily',
  plant: 'Planta',
  timezone: 'Zona horaria',
  capacity: 'Capacidad (kWp)',
  daysWithData: 'Días con datos',
  date: 'Fecha',
  generation: 'Generación (kWh)',
  consumption: 'Consumo (kWh)',
  gridImport: 'Importación de red (kWh)',
  gridExport: 'Exportación a red (kWh)',
  charge: 'Carga de batería (kWh)',
  discharge: 'Descarga de batería (kWh)',
  income: 'Ingresos',
  incomeIn: (currency) => (currency ? `Ingresos (${currency})` : 'Ingresos'),
  currency: 'Moneda',
  fullLoadHours: 'Horas equivalentes a plena carga (h)',
  peakPower: 'Potencia pico (kW)',
  generationSheet: 'Generación',
  generationTitle: (plant, period, date, zone) =>
    period === 'day'
      ? `${plant} – potencia del ${date} (${zone})`
      : period === 'total'
        ? `${plant} – generación por año`
        : `${plant} – generación ${period === 'month' ? date.slice(0, 7) : date.slice(0, 4)}`,
  time: 'Hora',
  pv: 'Potencia FV (W)',
  load: 'Consumo (W)',
  grid: 'Red (W, + importación / − exportación)',
  battery: 'Batería (W, + descarga / − carga)',
  soc: 'SOC (%)',
  forecast: 'Previsión (W)',
  label: { day: 'Hora', month: 'Día', year: 'Mes', total: 'Año' },
  energy: 'Energía (kWh)',
  total: 'Total',
  tooManyPlants: `como máximo ${REPORT_MAX_PLANTS} plantas por informe`,
  notADate: (field) => `${field} no es una fecha del calendario`,
  order: 'endDate no puede ser anterior a startDate',
  tooLong: (days) => `el intervalo de fechas está limitado a ${limits.dateRangeDays} días (se pidieron ${days} días)`,
  future: (max) => `endDate no puede ser posterior a ${max}`,
  plantIdMissing: 'el campo "plantId" debe ser el id de una planta',
  fileMissing: 'falta el campo "file" con el libro',
  fileTooLarge: `el archivo supera ${mb} MB`,
  xls: 'es un libro antiguo de Excel 97–2003 (.xls), que no se acepta; ábralo en Excel o LibreOffice y guárdelo como .xlsx',
  encrypted: 'el libro está protegido con contraseña; quite la contraseña y súbalo de nuevo',
  notXlsx: 'el archivo no es un libro de Excel (.xlsx)',
  damaged: 'el libro está dañado o es demasiado grande al descomprimirlo',
  noRows: 'la primera hoja no tiene filas de previsión',
  tooManyRows: (row) => `más de ${FORECAST_MAX_ROWS} filas de previsión (fila ${row})`,
  badTime: (row) => `fila ${row}: la columna A debe ser una celda de fecha o una hora escrita "AAAA-MM-DD HH:mm"`,
  badPower: (row) => `fila ${row}: la columna B debe ser una potencia de 0 o más (W, o kW si el encabezado dice kW)`,
  repeated: (row, first) => `fila ${row}: la misma hora que la fila ${first}`,
  skipped: (row, time, zone, other) =>
    `fila ${row}: ${time} no existe en ${zone} (el reloj la salta) y coincidiría con la hora de la fila ${other}`,
};

export type Texts = typeof en;
export const texts = (lan: Language): Texts => (lan === 'es' ? es : en);
