/** Business constants and limits, shared by the web app and the server. */
export const limits = {
  requestButtonGuardMs: 3000,
  refreshGrantType: 'refresh_token',
  rolesPerCompany: 5,
  /** Gateways one restart batch may name. */
  batchRestartMax: 200,
  decimals: 2,
  titleWaitPollMs: 100,
  loadingOverlayHideMs: 200,
  pdf: { widthPt: 592.28, heightPt: 841.89, imageWidth: 560 },
  password: { min: 6, max: 16 },
  plantName: { min: 5, max: 32 },
  capacity: { min: 0, max: 50000 },
  price: { min: 0, max: 9999 },
  priceSegments: 6,
  avatarBytes: 6 * 1024 * 1024,
  plantPictureBytes: 10 * 1024 * 1024,
  firmwareBytes: 1.5 * 1024 * 1024,
  firmwareFileName: 40,
  parametersOrProfiles: 6,
  choices: 30,
  dateRangeDays: 90,
  valueInput: 9999999,
  deviceAliasBytes: 32,
  /** A plant transfer request lapses unanswered after this many days. */
  plantTransferDays: 7,
  verificationCode: { digits: 6, ttlMs: 10 * 60 * 1000, maxTries: 5 },
  /** How long the send-code button waits before a code may be asked again. */
  codeResendSeconds: 60,
  page: { defaultSize: 10, maxSize: 100 },
  /** Devices one remote-setting batch may name. */
  settingBatchDevices: 200,
} as const;

export const defaultThemeColor = '#00cc00';
export const versionLabel = 'V250120';
export const defaultPlantSort = { sort: 'createAt', order: 2 } as const;
export const quickRanges = ['today', 'yesterday', 'last3', 'last5', 'last7', 'last30', 'last60', 'last90'] as const;
export const temperatureUnits = ['C', 'F'] as const;
export type TemperatureUnit = (typeof temperatureUnits)[number];
