// @sunfleet/protocols: protocol definitions and the Modbus register decoder/encoder shared by
// the server (decode uploads, encode setting writes) and the simulator (encode register banks).
export { type DecodedFrame, type FieldValue, type RegisterBlock, registerBlockProblem } from './decode.ts';
export {
  assertValidDefinition,
  type BitDefinition,
  type BitLevel,
  type DataType,
  type DeviceKind,
  type FieldDefinition,
  type FieldGroup,
  type FunctionCode,
  isSettingGroup,
  type LocalizedText,
  MAX_READ_REGISTERS,
  type ProtocolDefinition,
  validateDefinition,
  wireAddress,
} from './definition.ts';
export { MAX_PACKS } from './definitions/battery-pack.ts';
export { inverterDeviceTypes } from './definitions/build.ts';
export { workModes } from './definitions/hybrid-inverter.ts';
export {
  batteryPack,
  getProtocol,
  hybridInverter1p,
  hybridInverter3p,
  listProtocols,
  microInverter,
  mtStringInverter,
  type ProtocolSummary,
  pcsInverter,
  protocolPlan,
  protocols,
  stringInverter,
  threePhaseMeter,
  uneetMicroInverter,
  weatherStation,
} from './definitions/index.ts';
export {
  blockReader,
  fromSunSpecModel,
  type RegisterReader,
  SUNS_MARKER,
  SUNSPEC_BASES,
  type SunSpecGroup,
  type SunSpecModel,
  type SunSpecModelLocation,
  type SunSpecModelOptions,
  type SunSpecPoint,
  sunspecDeviceDefinition,
  sunspecModelFields,
  walkSunSpecChain,
} from './definitions/sunspec.ts';
export type { EncodeOptions, InputValue, RegisterRange, RegisterWrite, SelectOptions } from './encode.ts';
export { type BitMeaning, compile, ProtocolPlan } from './plan.ts';
export {
  decodeSettingGroup,
  powerSwitchValues,
  type SettingProblem,
  type SettingProblemCode,
  type SettingValidation,
  type SupportedSettings,
  settingGroupFields,
  settingGroupReads,
  settingValueProblem,
  stepOf,
  supportedSettings,
  validateSettingValues,
} from './settings.ts';
export {
  fromSolarmanMap,
  type SolarmanConversion,
  type SolarmanItem,
  type SolarmanMap,
  type SolarmanOptions,
} from './solarman.ts';
