/** The seam between the MQTT side (broker or bridge) and ingest. */
import type { UpChannel } from '@sunfleet/contracts';

export interface TelemetryHandler {
  /**
   * A message a gateway published under its own `up/` tree, already authenticated and
   * authorised (the broker layer guarantees `sn` is the publisher). Must not throw and must
   * not block: validation, decoding and writing happen asynchronously and in batches.
   * The `state` channel is handled by the broker layer (presence) and not passed here.
   *
   * `ack` is called once the message is settled: every frame in it committed to the store, or
   * refused and counted (a frame that can never be valid is not worth a resend). The MQTT side
   * sends the QoS 1 PUBACK only then, so a crash never loses a frame the gateway was told is
   * stored: the gateway resends what was not acknowledged. A message the handler does not take
   * (it is closing) is never acknowledged.
   */
  message(sn: string, channel: Exclude<UpChannel, 'state'>, payload: Buffer, receivedAt: number, ack?: () => void): void;
  /**
   * Back-pressure: null while the handler keeps up; while its backlog is over its high-water
   * mark, a promise that resolves (never rejects) once the backlog has drained below the low-water
   * mark. The MQTT side holds the QoS 1 acknowledgement of the message just handed over (and so
   * stops reading that connection) until then: a publisher faster than the store is slowed down
   * instead of filling memory.
   */
  ready?(): Promise<void> | null;
}
