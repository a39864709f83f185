/** Texts of the gateway stock's files and messages, in the request language (en, es). */
import { gatewayStockApi, type Language, limits } from '@sunfleet/contracts';

type Problem = gatewayStockApi.StockProblem;
const { STOCK_IMPORT_MAX_BYTES, STOCK_IMPORT_MAX_ROWS } = gatewayStockApi;
const mb = STOCK_IMPORT_MAX_BYTES / (1024 * 1024);

const en = {
  sheet: 'Gateways',
  headers: { sn: 'SN', customer: 'Customer (id or name)', protocol: 'Protocol', alias: 'Alias' },
  exampleAlias: 'Example row (skipped on import)',
  // the list download
  list: {
    sn: 'SN',
    alias: 'Alias',
    customer: 'Customer or agent',
    protocol: 'Protocol',
    plant: 'Plant',
    status: 'Status',
    online: 'Online',
    offline: 'Offline',
    swVersion: 'Software version',
    hwVersion: 'Hardware version',
    commType: 'Communication',
    rssi: 'Signal (dBm)',
    lastOnline: 'Last online (UTC)',
    created: 'Created (UTC)',
  },
  problems: {
    snMissing: 'the SN is missing',
    snFormat: 'the SN must be 1 to 32 of A–Z, a–z, 0–9, _ and -',
    snRepeated: 'the SN appears more than once',
    snExists: 'a gateway with this SN exists',
    customerMissing: 'no such customer',
    protocolUnknown: 'unknown protocol',
    aliasTooLong: `the alias is longer than ${limits.deviceAliasBytes} bytes`,
  } satisfies Record<Problem, string>,
  fileMissing: 'field "file": choose an .xlsx file',
  fileTooLarge: `field "file": the file is larger than ${mb} MB`,
  notXlsx: 'field "file": not an .xlsx workbook',
  xls: 'field "file": old .xls workbooks are not read; save it as .xlsx',
  encrypted: 'field "file": the workbook is password-protected',
  damaged: 'field "file": the workbook cannot be read',
  noRows: 'field "file": the sheet has no gateway rows under the header row',
  tooManyRows: `field "file": more than ${STOCK_IMPORT_MAX_ROWS} rows`,
  badCustomerId: 'field "customerId": must be a company id',
  badMode: 'field "mode": must be "valid" or "all"',
};

type Texts = typeof en;

const es: Texts = {
  sheet: 'Pasarelas',
  headers: { sn: 'SN', customer: 'Cliente (id o nombre)', protocol: 'Protocolo', alias: 'Alias' },
  exampleAlias: 'Fila de ejemplo (se omite al importar)',
  list: {
    sn: 'SN',
    alias: 'Alias',
    customer: 'Cliente o agente',
    protocol: 'Protocolo',
    plant: 'Planta',
    status: 'Estado',
    online: 'En línea',
    offline: 'Desconectada',
    swVersion: 'Versión de software',
    hwVersion: 'Versión de hardware',
    commType: 'Comunicación',
    rssi: 'Señal (dBm)',
    lastOnline: 'Última conexión (UTC)',
    created: 'Creada (UTC)',
  },
  problems: {
    snMissing: 'falta el SN',
    snFormat: 'el SN debe tener de 1 a 32 caracteres entre A–Z, a–z, 0–9, _ y -',
    snRepeated: 'el SN aparece más de una vez',
    snExists: 'ya existe una pasarela con este SN',
    customerMissing: 'no existe ese cliente',
    protocolUnknown: 'protocolo desconocido',
    aliasTooLong: `el alias supera los ${limits.deviceAliasBytes} bytes`,
  },
  fileMissing: 'campo "file": elija un archivo .xlsx',
  fileTooLarge: `campo "file": el archivo supera los ${mb} MB`,
  notXlsx: 'campo "file": no es un libro .xlsx',
  xls: 'campo "file": los libros .xls antiguos no se leen; guárdelo como .xlsx',
  encrypted: 'campo "file": el libro está protegido con contraseña',
  damaged: 'campo "file": el libro no se puede leer',
  noRows: 'campo "file": la hoja no tiene filas de pasarelas bajo la fila de encabezados',
  tooManyRows: `campo "file": más de ${STOCK_IMPORT_MAX_ROWS} filas`,
  badCustomerId: 'campo "customerId": debe ser el id de una empresa',
  badMode: 'campo "mode": debe ser "valid" o "all"',
};

export const texts = (lan: Language): Texts => (lan === 'es' ? es : en);
