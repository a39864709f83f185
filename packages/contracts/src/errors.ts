import Type, { type Static } from 'typebox';

/**
 * The business error catalogue. A business error travels as HTTP 200 with
 * `{ code, msg, data: null }`; the client shows the translated text unless the call
 * whitelists the code. A code's number never changes once given; the messages that came
 * without a number were numbered here (docs/decisions.md).
 */
export const errorCatalogue = {
  0: { key: 'ok', en: 'Success', es: 'Éxito' },
  1: { key: 'timeout', en: 'The request timed out', es: 'La solicitud ha excedido el tiempo de espera' },
  2: { key: 'noPermission', en: 'You do not have permission for this', es: 'No tiene permiso para esto' },
  3: {
    key: 'tooManyRequests',
    en: 'Too many requests, please try again later',
    es: 'Demasiadas solicitudes, inténtelo más tarde',
  },
  4: { key: 'validation', en: 'Invalid input', es: 'Entrada no válida' },
  5: { key: 'codeWrong', en: 'The verification code is wrong', es: 'El código de verificación es incorrecto' },
  6: { key: 'codeExpired', en: 'The verification code has expired', es: 'El código de verificación ha caducado' },
  10: { key: 'coordinates', en: 'Longitude or latitude is wrong', es: 'La longitud o la latitud es incorrecta' },
  11: {
    key: 'imageTooLarge',
    en: 'The image is too large: at most 25 megapixels and 4096 pixels wide or high (an icon 1024, a plant picture 8192)',
    es: 'La imagen es demasiado grande: como máximo 25 megapíxeles y 4096 píxeles de ancho o de alto (un icono 1024, una imagen de planta 8192)',
  },
  101: { key: 'accountDisabled', en: 'This account is disabled', es: 'Esta cuenta está deshabilitada' },
  102: { key: 'wrongCredentials', en: 'Wrong account or password', es: 'Cuenta o contraseña incorrecta' },
  103: { key: 'accountRegistered', en: 'This account is already registered', es: 'Esta cuenta ya está registrada' },
  104: { key: 'accountExists', en: 'The account exists', es: 'La cuenta existe' },
  105: { key: 'isAccount', en: 'This is an account', es: 'Esto es una cuenta' },
  106: {
    key: 'accountInCompany',
    en: 'The account is already associated with a company',
    es: 'La cuenta ya está asociada a una empresa',
  },
  108: { key: 'oldPasswordWrong', en: 'The old password is wrong', es: 'La contraseña anterior es incorrecta' },
  202: { key: 'agentExists', en: 'The agent exists', es: 'El agente ya existe' },
  203: { key: 'companyNameTaken', en: 'A company with this name exists', es: 'Ya existe una empresa con este nombre' },
  207: { key: 'already', en: 'Already done', es: 'Ya realizado' },
  300: { key: 'registrationIncorrect', en: 'The registration is incorrect', es: 'El registro es incorrecto' },
  301: { key: 'gatewayUsed', en: 'The gateway is already in use', es: 'La pasarela ya está en uso' },
  305: { key: 'gatewayMissing', en: 'The gateway does not exist', es: 'La pasarela no existe' },
  401: {
    key: 'tokenFailed',
    en: 'Your session is invalid, please log in again',
    es: 'Su sesión no es válida, inicie sesión de nuevo',
  },
  404: { key: 'notFound', en: 'Not found', es: 'No encontrado' },
  500: {
    key: 'serverError',
    en: 'The server did not respond, please try again later',
    es: 'El servidor no respondió, inténtelo más tarde',
  },
  503: {
    key: 'storeUnavailable',
    en: 'The service is briefly unavailable, please try again in a moment',
    es: 'El servicio no está disponible por un momento, inténtelo de nuevo en breve',
  },
  600: { key: 'inverterMissing', en: 'The inverter does not exist', es: 'El inversor no existe' },
  601: {
    key: 'inverterUnsupported',
    en: "This inverter brand's parameter setting is not supported",
    es: 'La configuración de parámetros de esta marca de inversor no es compatible',
  },
  700: { key: 'plantMissing', en: 'The plant does not exist', es: 'La planta no existe' },
  701: { key: 'shareSelf', en: 'You cannot share with yourself', es: 'No puede compartir consigo mismo' },
  702: { key: 'shareCompanyUser', en: 'You cannot share with company users', es: 'No puede compartir con usuarios de empresa' },
  703: { key: 'shareCompanyPlant', en: 'A company plant cannot be shared', es: 'No se puede compartir una planta de empresa' },
  704: {
    key: 'transferPending',
    en: 'A transfer of this plant is already waiting for an answer',
    es: 'Ya hay una transferencia de esta planta esperando respuesta',
  },
  705: {
    key: 'transferClosed',
    en: 'This transfer is no longer pending',
    es: 'Esta transferencia ya no está pendiente',
  },
  800: { key: 'roleLimit', en: 'A company can have at most 5 roles', es: 'Una empresa puede tener como máximo 5 roles' },
  801: { key: 'roleExists', en: 'The role exists', es: 'El rol ya existe' },
  802: { key: 'modified', en: 'Modified', es: 'Modificado' },
  803: { key: 'ownRoleLocked', en: 'The current role cannot be modified', es: 'El rol actual no se puede modificar' },
  900: { key: 'ownAgent', en: 'You cannot be your own agent', es: 'No puede ser su propio agente' },
  901: { key: 'employeeAgent', en: 'Internal employees cannot be agents', es: 'Los empleados internos no pueden ser agentes' },
  902: {
    key: 'managersManager',
    en: "A company manager's manager cannot be an agent",
    es: 'El gerente de un gerente de empresa no puede ser agente',
  },
  903: { key: 'accountAgent', en: 'The account is an agent', es: 'La cuenta es un agente' },
  1001: { key: 'deviceOffline', en: 'The device is offline', es: 'El dispositivo está desconectado' },
  1002: { key: 'deviceUpgrading', en: 'The device is upgrading', es: 'El dispositivo se está actualizando' },
  1003: { key: 'deviceNoParameters', en: 'The device has no parameters', es: 'El dispositivo no tiene parámetros' },
  1004: { key: 'gridTypeError', en: 'Grid type error', es: 'Error de tipo de red' },
  1005: {
    key: 'stateBlocksAction',
    en: 'The current state blocks remote debug, upgrade or power on/off',
    es: 'El estado actual no permite la depuración remota, la actualización ni el encendido/apagado',
  },
  1006: {
    key: 'gatewayCredentials',
    en: 'The gateway SN or key is incorrect',
    es: 'El SN o la clave de la pasarela es incorrecto',
  },
  1007: { key: 'typeHasSubtype', en: 'This type has a subtype', es: 'Este tipo tiene un subtipo' },
  1008: { key: 'deviceRefused', en: 'The device refused the command', es: 'El dispositivo rechazó la orden' },
  1009: {
    key: 'settingBusy',
    en: 'Another setting change of this device is running',
    es: 'Otro cambio de ajustes de este dispositivo está en curso',
  },
  4000: {
    key: 'firmwareNameTaken',
    en: 'Duplicate firmware name or software version',
    es: 'Nombre de firmware o versión de software duplicados',
  },
  4001: { key: 'firmwareLatest', en: 'The firmware is already the latest', es: 'El firmware ya es el más reciente' },
  4002: { key: 'softwareLatest', en: 'The software is already the latest', es: 'El software ya es el más reciente' },
  4003: {
    key: 'firmwareInUse',
    en: 'The firmware is used by an upgrade',
    es: 'El firmware está en uso por una actualización',
  },
  4004: { key: 'productInUse', en: 'The product has firmware', es: 'El producto tiene firmware' },
  4005: { key: 'productExists', en: 'A product with this name exists', es: 'Ya existe un producto con este nombre' },
  4006: {
    key: 'inverterTypeExists',
    en: 'An inverter type with this name exists',
    es: 'Ya existe un tipo de inversor con este nombre',
  },
  5000: { key: 'codeExists', en: 'The code exists', es: 'El código ya existe' },
  6001: { key: 'drDeviceExists', en: 'The device exists', es: 'El dispositivo ya existe' },
  6002: { key: 'drDeviceMissing', en: 'The device does not exist', es: 'El dispositivo no existe' },
  6003: { key: 'drEnrollmentMissing', en: 'The enrolment does not exist', es: 'La inscripción no existe' },
  6004: { key: 'drDeviceUsed', en: 'The device is already used', es: 'El dispositivo ya está en uso' },
  6005: { key: 'drAccountBound', en: 'The customer account is already bound', es: 'La cuenta del cliente ya está vinculada' },
  6006: { key: 'drSameSn', en: 'The inverter SN is the same', es: 'El SN del inversor es el mismo' },
} as const satisfies Record<number, { key: string; en: string; es: string }>;

/** A catalogue code (its number). */
export type ErrorCode = keyof typeof errorCatalogue;
type Catalogue = typeof errorCatalogue;
/** A catalogue code's name (`notFound`). */
export type ErrorKey = Catalogue[ErrorCode]['key'];

/**
 * Every catalogue code by its name (`ErrorCode.notFound` is 404): code refers to an error by
 * this name, never by its bare number. Built from the catalogue, so the two never disagree.
 */
export const ErrorCode = Object.freeze(
  Object.fromEntries(Object.entries(errorCatalogue).map(([code, entry]) => [entry.key, Number(code)])),
) as { readonly [C in ErrorCode as Catalogue[C]['key']]: C };
export type Language = 'en' | 'es';
export const languages: readonly Language[] = ['en', 'es'];

/**
 * The `data` of a code-4 answer that can name what was wrong: the fields its message names, as
 * paths inside the request's body, query or params (`name`, `profiles.0.name`). The message stays
 * the sentence for people; a client places the error by these.
 */
export const ValidationDataSchema = Type.Object(
  { fields: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }) },
  { additionalProperties: false },
);
export type ValidationData = Static<typeof ValidationDataSchema>;

/** Any answer that is not a success: a catalogue code other than 0, its text, and no data but a code 4's fields. */
export const ErrorEnvelopeSchema = Type.Object(
  {
    code: Type.Integer({ description: 'Catalogue code, never 0' }),
    msg: Type.String(),
    data: Type.Union([Type.Null(), ValidationDataSchema], {
      description: 'null; for bad input (code 4) that names fields, the fields (paths inside the body, query or params)',
    }),
  },
  { additionalProperties: false },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelopeSchema>;

/** Codes that 'warn' rather than fail in the client (4001 shows in warning style). */
export const warningCodes: readonly ErrorCode[] = [ErrorCode.firmwareLatest];

export function errorText(code: number, lan: Language = 'en'): string {
  const entry = (errorCatalogue as Record<number, { en: string; es: string }>)[code];
  return entry ? entry[lan] : errorCatalogue[ErrorCode.serverError][lan];
}

/** Normalise a `lan` value from a request or browser to a catalogue language. */
export function toLanguage(value: string | undefined | null): Language {
  return value?.toLowerCase().startsWith('es') ? 'es' : 'en';
}
