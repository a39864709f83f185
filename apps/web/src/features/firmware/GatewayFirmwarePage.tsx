/** /firmware/gate: the gateway firmware library. */
import { FirmwarePage } from './FirmwarePage.tsx';

export default function GatewayFirmwarePage() {
  return <FirmwarePage type="gateway" />;
}
