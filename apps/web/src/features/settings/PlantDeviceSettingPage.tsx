/** /plants/device/setting?plantId=…: remote settings of one of a plant's inverters, the plant fixed. */
import { DeviceSettingPage } from './DeviceSettingPage.tsx';

export default function PlantDeviceSettingPage() {
  return <DeviceSettingPage withinPlant />;
}
