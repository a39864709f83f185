/** The seam between the MQTT side (broker or bridge) and ingest. */
import type { UpChannel } from '@sunfleet/contracts';

export interface TelemetryHandler {
  /**
   * A message a gateway published under its own `up/` tree, already authenticated and
   * authorised (the broker layer guarantees `sn` is the publisher). Must not throw and must
   * not block: validation, decoding and writing happen asynchronously and in batches.
   * The `state` channel is handled by the broker layer (presence) and not passed here.
   */
  message(sn: string, channel: Exclude<UpChannel, 'state'>, payload: Buffer, receivedAt: number): void;
}
