/** A device serial number as the server accepts it. */
import { devicesApi } from '@sunfleet/contracts';

const snPattern = new RegExp(devicesApi.SN_PATTERN);

export const isValidSn = (sn: string) => snPattern.test(sn);
