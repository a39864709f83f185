/** Demand-response routes: the enrolment area's calls and the VTN's webhook. */
import { demandResponseApi as api, ErrorCode } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { termsUrl } from '../../demand-response/programmes.ts';
import { vtnStatus } from '../../demand-response/registration.ts';
import { venStats } from '../../demand-response/stats.ts';
import { Ven } from '../../demand-response/ven.ts';
import { AuthError, RequestError, replyError, TooManyRequests } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { hit, throttleKey } from '../../http/throttle.ts';
import { silentLogger } from '../../log.ts';
import { iso } from '../../time/index.ts';
import * as enrollments from './enrollments.service.ts';
import * as events from './events.service.ts';
import * as stations from './stations.ts';

const vens = new WeakMap<FastifyInstance, Ven | null>();

/** This app's VEN (null when no VTN is configured): takes notifications and opt-outs; loops run in the jobs role. */
export function venOf(app: FastifyInstance): Ven | null {
  if (!vens.has(app)) {
    const { config, db, commands } = app.deps;
    vens.set(app, config.oadr ? new Ven({ db, config: config.oadr, commands, log: app.log ?? silentLogger }) : null);
  }
  return vens.get(app)!;
}

export function demandResponseRoutes(app: FastifyInstance) {
  const { db } = app.deps;

  route(app, api.listPrograms, async () => {
    const ven = venOf(app);
    if (!ven) return { connected: false, live: false, programs: [], vtn: null };
    const { programs, live } = await ven.programs();
    const status = await vtnStatus(db);
    return {
      connected: true,
      live,
      vtn: {
        registered: status.registered,
        lastPollAt: iso(status.lastPollAt),
        lastOkAt: iso(status.lastOkAt),
        lastError: status.lastError,
      },
      programs: programs.map((p) => ({
        id: p.id,
        name: p.programName,
        type: String(p.attributes?.find((a) => a.type === 'PROGRAM_TYPE')?.values?.[0] ?? '') || null,
        termsUrl: termsUrl(p.programName),
        descriptionUrls: (p.programDescriptions ?? []).map((d) => d.URL).filter((u): u is string => typeof u === 'string'),
      })),
    };
  });
  route(app, api.listEnrollments, ({ caller, query }) => enrollments.listEnrollments(db, caller, query));
  route(app, api.getEnrollment, ({ caller, params }) => enrollments.getEnrollment(db, caller, params.id));
  route(app, api.enrollmentState, ({ caller, params }) => enrollments.enrollmentState(db, caller, params.id));
  route(app, api.enroll, ({ caller, body }) => enrollments.enroll(db, caller, body));
  route(app, api.addDevices, ({ caller, params, body }) => enrollments.addDevices(db, caller, params.id, body.devices));
  route(app, api.removeDevice, ({ caller, params }) => enrollments.removeDevice(db, caller, params.id, params.sn));
  route(app, api.unenroll, ({ caller, params }) => enrollments.unenroll(db, caller, params.id));
  route(app, api.timezones, () => stations.timezones());
  route(app, api.userStations, ({ caller, params }) => stations.userStations(db, caller, params.id));
  route(app, api.stationMasterDevice, ({ caller, params }) => stations.stationMasterDevices(db, caller, params.stationId));
  route(app, api.stationTimezone, ({ caller, params }) => stations.stationTimezone(db, caller, params.stationId));
  route(app, api.listEvents, ({ caller, query }) => events.listEvents(db, caller, query));
  route(app, api.getEvent, ({ caller, params }) => events.getEvent(db, caller, params.id));
  route(app, api.cancelEvent, ({ caller, params }) => events.optOut(db, venOf(app), caller, params.id));

  // The webhook: the echo challenge answers its value as the body; a notification is stored
  // before the VTN gets its 200, so an answer means it will be processed.
  const echo = async ({
    query,
    req,
    reply,
  }: {
    query: { echo?: string };
    req: import('fastify').FastifyRequest;
    reply: import('fastify').FastifyReply;
  }) => {
    // Without a VTN there is no webhook: 404 in the envelope, like any unknown address.
    if (!venOf(app)) return replyError(req, reply, 404, ErrorCode.notFound);
    return reply
      .code(200)
      .type('text/plain; charset=utf-8')
      .send(query.echo ?? '');
  };
  route(app, api.callbackEcho, echo);
  route(app, api.callbackEchoPath, echo);
  // Public: every call is counted per address (a VTN sends a few a minute; over the limit 429 with
  // Retry-After, counted); one without the subscription's bearer token is refused with 401 and
  // nothing is stored; one with it is stored before the VTN gets its 200, as a hint to read again.
  route(app, api.callbackNotify, async ({ req, reply }) => {
    const ven = venOf(app);
    if (!ven) return replyError(req, reply, 404, ErrorCode.notFound);
    if (app.deps.config.rateLimits) {
      const hits = await hit(db, throttleKey(WEBHOOK_LIMIT.name, req.ip), WEBHOOK_LIMIT.minutes * 60_000);
      if (hits.count > WEBHOOK_LIMIT.max) {
        venStats.webhookRefused.throttled++;
        throw new TooManyRequests((hits.windowStart + WEBHOOK_LIMIT.minutes * 60_000 - Date.now()) / 1000);
      }
    }
    const outcome = await ven.notify(req.body, req.headers.authorization);
    if (outcome === 'unauthorized') throw new AuthError('the webhook needs the subscription’s bearer token');
    if (outcome === 'malformed') throw new RequestError(400, 'not a notification');
    return reply.code(200).send({});
  });
}

/** Webhook calls per client address: a VTN sends a few a minute. */
const WEBHOOK_LIMIT = { name: 'oadr-webhook', max: 60, minutes: 1 };
