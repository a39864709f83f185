import { describe, expect, it } from 'vitest';
import { settingFamilies } from '../settingFamilies.ts';
import { settingCalls, settingEndpoints, settingGroupEndpoints } from './settings.ts';

/** The spec's checklist of remote-setting calls, as it names them. */
const specCalls = [
  'GET /api/v1/mt/setting/:sn/singleInstruction/read',
  'POST /api/v1/mt/setting/:sn/singleInstruction',
  'GET /api/v1/mt/setting/:sn/writeEtoday/read',
  'POST /api/v1/mt/setting/:sn/writeEtoday',
  'GET /api/v1/mt/setting/:sn/writeEtotal/read',
  'POST /api/v1/mt/setting/:sn/writeEtotal',
  'GET /api/v1/mt/setting/:sn/startUp/read',
  'POST /api/v1/mt/setting/:sn/startUp',
  'GET /api/v1/mt/setting/:sn/gridVolt/read',
  'POST /api/v1/mt/setting/:sn/gridVolt',
  'GET /api/v1/mt/setting/:sn/gridFreq/read',
  'POST /api/v1/mt/setting/:sn/gridFreq',
  'GET /api/v1/mt/setting/:sn/overFreq/read',
  'POST /api/v1/mt/setting/:sn/overFreq',
  'GET /api/v1/mt/setting/:sn/reactive/read',
  'POST /api/v1/mt/setting/:sn/reactive',
  'GET /api/v1/mt/setting/:sn/dci/read',
  'POST /api/v1/mt/setting/:sn/dci',
  'GET /api/v1/mt/setting/:sn/active/read',
  'POST /api/v1/mt/setting/:sn/active',
  'GET /api/v1/mt/setting/:sn/acVoltFreq/read',
  'POST /api/v1/mt/setting/:sn/acVoltFreq',
  'GET /api/v1/mt/setting/:sn/meter/read',
  'POST /api/v1/mt/setting/:sn/meter',
  'GET /api/v1/gy/setting/:sn/basicSetting/read',
  'POST /api/v1/gy/setting/:sn/basicSetting',
  'GET /api/v1/gy/setting/:sn/pcsWorkModel/read',
  'POST /api/v1/gy/setting/:sn/pcsWorkModel',
  'GET /api/v1/gy/setting/:sn/gridProtect/read',
  'POST /api/v1/gy/setting/:sn/gridProtect',
  'GET /api/v1/gy/setting/:sn/gridProtectTime/read',
  'POST /api/v1/gy/setting/:sn/gridProtectTime',
  'GET /api/v1/gy/setting/:sn/freqParam/read',
  'POST /api/v1/gy/setting/:sn/freqParam',
  'GET /api/v1/gy/setting/:sn/powerFactor/read',
  'POST /api/v1/gy/setting/:sn/powerFactor',
  'GET /api/v1/gy/setting/:sn/sysMeter/read',
  'POST /api/v1/gy/setting/:sn/sysMeter',
  'GET /api/v1/gy/setting/:sn/setBattery/read',
  'POST /api/v1/gy/setting/:sn/setBattery',
  'GET /api/v1/gy/setting/:sn/sysTime/read',
  'POST /api/v1/gy/setting/:sn/sysTime',
  'GET /api/v1/dy/store/:sn/setting/batt/read',
  'POST /api/v1/dy/store/:sn/setting/batt',
  'GET /api/v1/dy/store/:sn/setting/workMode/read',
  'POST /api/v1/dy/store/:sn/setting/workMode',
  'GET /api/v1/dy/store/:sn/setting/gridInput/read',
  'POST /api/v1/dy/store/:sn/setting/gridInput',
  'GET /api/v1/dy/store/:sn/setting/smartLoad/read',
  'POST /api/v1/dy/store/:sn/setting/smartLoad',
  'GET /api/v1/dy/store/:sn/setting/advanced/read',
  'POST /api/v1/dy/store/:sn/setting/advanced',
  'GET /api/v1/dy/store/:sn/setting/basic/read',
  'POST /api/v1/dy/store/:sn/setting/basic',
  'GET /api/v1/dy/store/:sn/setting/reset/read',
  'POST /api/v1/dy/store/:sn/setting/reset',
  'GET /api/v1/dy/store/:sn/setting/systime/read',
  'POST /api/v1/dy/store/:sn/setting/systime',
  'GET /api/v1/dy/store/:sn/setting/arc/read',
  'POST /api/v1/dy/store/:sn/setting/arc',
  'GET /api/v1/dy/store/:sn/setting/arcClear/read',
  'POST /api/v1/dy/store/:sn/setting/arcClear',
  'GET /api/v1/dy/store/threePhase/:sn/setting/batt/read',
  'POST /api/v1/dy/store/threePhase/:sn/setting/batt',
  'GET /api/v1/dy/store/threePhase/:sn/setting/workMode/read',
  'POST /api/v1/dy/store/threePhase/:sn/setting/workMode',
  'GET /api/v1/dy/store/threePhase/:sn/setting/gridInput/read',
  'POST /api/v1/dy/store/threePhase/:sn/setting/gridInput',
  'GET /api/v1/dy/store/threePhase/:sn/setting/smartLoad/read',
  'POST /api/v1/dy/store/threePhase/:sn/setting/smartLoad',
  'GET /api/v1/dy/store/threePhase/:sn/setting/advanced/read',
  'POST /api/v1/dy/store/threePhase/:sn/setting/advanced',
  'GET /api/v1/dy/store/threePhase/:sn/setting/basic/read',
  'POST /api/v1/dy/store/threePhase/:sn/setting/basic',
  'GET /api/v1/dy/store/threePhase/:sn/setting/reset/read',
  'POST /api/v1/dy/store/threePhase/:sn/setting/reset',
  'GET /api/v1/dy/store/threePhase/:sn/setting/systime/read',
  'POST /api/v1/dy/store/threePhase/:sn/setting/systime',
  'GET /api/v1/dy/store/threePhase/:sn/setting/arc/read',
  'POST /api/v1/dy/store/threePhase/:sn/setting/arc',
  'GET /api/v1/dy/store/threePhase/:sn/setting/arcClear/read',
  'POST /api/v1/dy/store/threePhase/:sn/setting/arcClear',
  'GET /api/v1/dy/store/threePhase/:sn/setting/gridInput2/read',
  'POST /api/v1/dy/store/threePhase/:sn/setting/gridInput2',
  'GET /api/v1/dy/store/threePhase/:sn/setting/advanced2/read',
  'POST /api/v1/dy/store/threePhase/:sn/setting/advanced2',
  'GET /api/v1/asw/:sn/setting/basic/read',
  'POST /api/v1/asw/:sn/setting/basic',
  'GET /api/v1/asw/:sn/setting/gridProtect/read',
  'POST /api/v1/asw/:sn/setting/gridProtect',
  'GET /api/v1/asw/:sn/setting/activeCtrl/read',
  'POST /api/v1/asw/:sn/setting/activeCtrl',
  'GET /api/v1/asw/:sn/setting/reactiveCtrl/read',
  'POST /api/v1/asw/:sn/setting/reactiveCtrl',
  'GET /api/v1/setting/uneet/:sn/read',
  'POST /api/v1/setting/uneet/:sn/safetySetting',
  'GET /api/v1/dy/grid/:sn/read',
  'POST /api/v1/dy/grid/:sn/setting/protectPara',
  'POST /api/v1/dy/grid/:sn/setting/eeprom',
  'POST /api/v1/dy/grid/:sn/setting/runPara',
];

describe('setting group endpoints', () => {
  it('are exactly the 100 calls of the checklist', () => {
    expect(specCalls).toHaveLength(100);
    expect(settingCalls.map((e) => `${e.method} ${e.path}`).sort()).toEqual([...specCalls].sort());
  });

  it('give every group of every family a read and a write; reads need only the view, writes the setting permission', () => {
    for (const family of settingFamilies) {
      for (const group of family.groups) {
        const e = settingEndpoints(family.id, group)!;
        expect(e.read.access).toBe('inverter.view');
        expect('writes' in e.read).toBe(false);
        expect(e.write).toMatchObject({ method: 'POST', access: 'inverter.setting', writes: true, encoding: 'json' });
      }
    }
    expect(settingGroupEndpoints).toHaveLength(settingFamilies.reduce((n, f) => n + f.groups.length, 0));
    // A whole-read family shares one read among its groups.
    expect(settingEndpoints('dyGrid', 'eeprom')!.read).toBe(settingEndpoints('dyGrid', 'runPara')!.read);
  });
});
