/** Routes of remote upgrades (gateways and inverters), their rollouts, and the signed firmware download: thin. */
import { upgradesApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { serveFirmware } from './download.ts';
import { upgradeCtx } from './engine.ts';
import * as rollouts from './rollouts.ts';
import * as up from './upgrades.service.ts';

export function upgradeRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const options = (b: { canarySize?: number; canaryPercent?: number; waveSize?: number; failureThreshold?: number }) => ({
    ...(b.canarySize !== undefined ? { canarySize: b.canarySize } : {}),
    ...(b.canaryPercent !== undefined ? { canaryPercent: b.canaryPercent } : {}),
    ...(b.waveSize !== undefined ? { waveSize: b.waveSize } : {}),
    ...(b.failureThreshold !== undefined ? { failureThreshold: b.failureThreshold } : {}),
  });

  route(app, api.inverterUpgrade, ({ caller, params, query }) =>
    up.startUpgrade(deps, caller, 'inverter', [{ sn: params.sn }], query.firmId, { single: true }),
  );
  route(app, api.inverterBatchUpgrade, ({ caller, params, body }) =>
    up.startUpgrade(
      deps,
      caller,
      'inverter',
      [params.sn, ...(body.sns ?? [])].map((sn) => ({ sn })),
      body.firmId,
      options(body),
    ),
  );
  route(app, api.inverterCutUpgrade, ({ caller, params }) => up.cutInverter(deps, caller, params.sn));
  route(app, api.inverterUpgradeProgress, ({ caller, params }) => up.inverterProgress(deps, caller, params.sn));
  route(app, api.inverterFirmware, ({ caller, params }) => up.inverterFirmware(deps, caller, params.sn));
  route(app, api.upgradeFirmwares, ({ query }) => up.firmwares(deps, query.type));
  route(app, api.gatewayUpgrade, ({ caller, params, query }) =>
    up.startUpgrade(deps, caller, 'gateway', [{ id: params.id }], query.firmId, { single: true }),
  );
  route(
    app,
    api.gatewayCheck,
    async ({ caller, params, query }) => (await up.checkGateways(deps, caller, [params.sn], query.firmId))[0]!,
  );
  route(app, api.gatewaysBatchCheck, ({ caller, body }) => up.checkGateways(deps, caller, body.sns, body.firmId));
  route(app, api.gatewaysBatchUpgrade, ({ caller, body }) =>
    up.startUpgrade(
      deps,
      caller,
      'gateway',
      body.sns.map((sn) => ({ sn })),
      body.firmId,
      options(body),
    ),
  );

  route(app, api.rollout, ({ caller, params }) => rollouts.rolloutView(deps, caller, params.id));
  route(app, api.rolloutDevices, ({ caller, params, query }) => rollouts.rolloutDevices(deps, caller, params.id, query));
  route(app, api.rollouts, ({ caller, query }) => rollouts.listRollouts(deps, caller, query));
  route(app, api.pauseRollout, ({ caller, params }) => rollouts.pauseRollout(deps, caller, params.id));
  route(app, api.resumeRollout, ({ caller, params }) => rollouts.resumeRollout(deps, caller, params.id));
  route(app, api.cancelRollout, ({ caller, params }) => rollouts.cancelRollout(deps, caller, params.id));

  route(app, api.firmwareDownload, async ({ req, reply, params, query }) => {
    const { links } = upgradeCtx(deps);
    return (await serveFirmware(deps.db, deps.config.dataDir, links, req, reply, { id: params.id, ...query })) as never;
  });
}
