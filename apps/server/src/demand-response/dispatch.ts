/**
 * An event's intervals become battery commands: planning (`plan.ts`: the power split over the
 * enrolled devices, one row per device and interval, a restore per device at the end) and sending
 * (`send.ts`: claimed rows; every group the device's control may write read before the event's
 * first write, all restored after; `controls.ts`: which settings force each family).
 */
export {
  allocate,
  devicesLeft,
  FULL_SOC,
  optOut,
  type Participant,
  participants,
  planEvent,
  RESERVE_SOC,
} from './plan.ts';
export { type RunOptions, runDue } from './send.ts';
