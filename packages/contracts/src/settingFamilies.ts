/**
 * The remote-setting families: each vendor protocol family has its own groups under its own
 * path. A group is read with `GET {path}/{group}/read` and written with `POST {path}/{group}`,
 * except families with one read for every group (`wholeRead`), whose groups are only written.
 * A device supports a family when its protocol definition names it (`settingFamily`).
 */
export interface SettingFamily {
  id: SettingFamilyId;
  /** Path under /api/v1 with `{sn}` for the device's serial number. */
  path: string;
  groups: readonly string[];
  /** One read of the whole family instead of a read per group. */
  wholeRead?: string;
}

export type SettingFamilyId = 'mt' | 'gy' | 'dyStore' | 'dyStore3p' | 'asw' | 'uneet' | 'dyGrid';

const dyStoreGroups = [
  'batt',
  'workMode',
  'gridInput',
  'smartLoad',
  'advanced',
  'basic',
  'reset',
  'systime',
  'arc',
  'arcClear',
] as const;

export const settingFamilies: readonly SettingFamily[] = [
  {
    id: 'mt',
    path: 'mt/setting/{sn}',
    groups: [
      'singleInstruction',
      'writeEtoday',
      'writeEtotal',
      'startUp',
      'gridVolt',
      'gridFreq',
      'overFreq',
      'reactive',
      'dci',
      'active',
      'acVoltFreq',
      'meter',
    ],
  },
  {
    id: 'gy',
    path: 'gy/setting/{sn}',
    groups: [
      'basicSetting',
      'pcsWorkModel',
      'gridProtect',
      'gridProtectTime',
      'freqParam',
      'powerFactor',
      'sysMeter',
      'setBattery',
      'sysTime',
    ],
  },
  { id: 'dyStore', path: 'dy/store/{sn}/setting', groups: dyStoreGroups },
  { id: 'dyStore3p', path: 'dy/store/threePhase/{sn}/setting', groups: [...dyStoreGroups, 'gridInput2', 'advanced2'] },
  { id: 'asw', path: 'asw/{sn}/setting', groups: ['basic', 'gridProtect', 'activeCtrl', 'reactiveCtrl'] },
  { id: 'uneet', path: 'setting/uneet/{sn}', groups: ['safetySetting'], wholeRead: 'setting/uneet/{sn}/read' },
  { id: 'dyGrid', path: 'dy/grid/{sn}/setting', groups: ['protectPara', 'eeprom', 'runPara'], wholeRead: 'dy/grid/{sn}/read' },
];

export function settingFamily(id: string): SettingFamily | undefined {
  return settingFamilies.find((f) => f.id === id);
}
