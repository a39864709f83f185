/** /firmware/inv: the inverter firmware library, its products and inverter types. */
import { FirmwarePage } from './FirmwarePage.tsx';

export default function InverterFirmwarePage() {
  return <FirmwarePage type="inverter" />;
}
