/**
 * Sending the outbox (reports) to the VTN. A report answers one VTN event object, bound by its id
 * and creation time: before it is sent the event is read back, and a report whose event the VTN
 * no longer has, or whose id now names another object (a VTN that lost its state re-uses ids), is
 * given up rather than filed against the wrong event. A refusal (4xx but 401, 403, 408, 425 and
 * 429, which may pass later) is final: the report is given up at once. A server error or a network
 * failure is retried with back-off (`backoffMs`) for at most `REPORT_RETRY_CAP_MS` after the report
 * was made, then given up. Every given-up report keeps its reason, shows on the event's page and
 * is counted.
 */
import type { RegistrationContext } from './registration.ts';
import { venStats } from './stats.ts';
import { claimOutbox, createdKey, finishOutbox, REPORT_RETRY_CAP_MS } from './store.ts';
import { VtnError } from './vtn-client.ts';

/** HTTP statuses that may pass on a later attempt (credentials being fixed, rate limits, timeouts). */
const RETRYABLE_4XX = new Set([401, 403, 408, 425, 429]);

export const isPermanent = (err: unknown) =>
  err instanceof VtnError && err.status >= 400 && err.status < 500 && !RETRYABLE_4XX.has(err.status);

class Unanswerable extends Error {}

/** Send what the outbox holds that is due; returns how many were sent. */
export async function processOutbox(ctx: RegistrationContext, now = Date.now()): Promise<number> {
  const { db, client, log } = ctx;
  let sent = 0;
  for (const row of await claimOutbox(db, 50, now)) {
    try {
      if (row.event_vtn_id !== null) {
        const event = await client.event(row.event_vtn_id);
        if (!event) throw new Unanswerable('the VTN no longer has the event this report answers');
        if (row.event_created && createdKey(event) !== row.event_created)
          throw new Unanswerable(
            `the VTN's event ${row.event_vtn_id} is another object now (created ${createdKey(event)}, the report's ${row.event_created})`,
          );
      }
      await client.createReport(JSON.parse(row.body));
      await finishOutbox(db, row.id, { sent: true });
      venStats.reports.sent++;
      sent++;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const expired = now - Number(row.created_at) >= REPORT_RETRY_CAP_MS;
      const dead = err instanceof Unanswerable || isPermanent(err) || expired;
      const error = expired && !(err instanceof Unanswerable) && !isPermanent(err) ? `gave up after 24 h: ${message}` : message;
      await finishOutbox(db, row.id, { sent: false, error, dead });
      if (dead) {
        venStats.reports.dead++;
        log.error({ report: row.dedupe_key, event: row.event_vtn_id, err: error }, 'demand response: report given up');
      } else {
        venStats.reports.retried++;
        log.warn(
          { report: row.dedupe_key, attempts: row.attempts, err: error },
          'demand response: report not sent; retried later',
        );
      }
    }
  }
  return sent;
}
