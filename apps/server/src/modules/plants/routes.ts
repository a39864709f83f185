/** Plant routes: thin; rules live in the services. */
import { plantsApi as api, ErrorCode, limits } from '@sunfleet/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fail } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { uploadLimit } from '../users/avatar.ts';
import * as devices from './devices.ts';
import * as gateways from './gateway-binding.ts';
import * as list from './list.ts';
import { mapLayer } from './map-layer.ts';
import { storePicture } from './pictures.ts';
import * as plants from './plants.service.ts';
import * as sharing from './sharing.ts';
import * as transfers from './transfers.service.ts';

// Guessing a label key is what these limits stop; a real user binds a handful. Checking, binding
// and creating a plant with a gateway count together, so no route adds guesses to another's.
const claimLimit = { limit: { max: 20, minutes: 10, byAccount: true, name: 'gateway-claim' } };
/** Creating a plant counts as a claim only when it carries a gateway. */
const createLimit = {
  limit: {
    ...claimLimit.limit,
    key: (req: FastifyRequest) =>
      (req.body as { gateway?: unknown } | undefined)?.gateway && req.caller ? `user:${req.caller.user.id}` : null,
  },
};
// Share and transfer look an account up by its address: counted together per user, so that
// neither becomes a way to probe which addresses have accounts.
const lookupLimit = { limit: { max: 30, minutes: 10, byAccount: true, name: 'account look-ups' } };

export function plantRoutes(app: FastifyInstance) {
  const { db, mailer, config } = app.deps;
  /**
   * Ingest caches each gateway's plant and time zone and each device's plant: after a change to
   * either, it reads them again (in this process; elsewhere its caches expire within 5 minutes).
   */
  const ingestForgets = async <T>(change: Promise<T>): Promise<T> => {
    const result = await change;
    app.deps.ingest?.forget();
    return result;
  };

  route(app, api.listPlants, ({ caller, query }) => list.listPlants(db, caller, query));
  route(app, api.plantsMap, ({ caller, query }) => list.plantsMap(db, caller, query));
  route(app, api.plantsMapLayer, () => mapLayer(config.mapTiles));
  route(app, api.plantFilter, ({ caller }) => list.plantFilter(db, caller));
  route(app, api.overviewPlantCount, ({ caller }) => list.plantCounts(db, caller));
  route(app, api.overviewEventCount, ({ caller }) => list.eventCounts(db, caller));
  route(app, api.userPlantCount, ({ caller, params }) =>
    params.id === caller.user.id ? list.plantCounts(db, caller, true) : fail(ErrorCode.noPermission),
  );
  route(app, api.userEventCount, ({ caller, params }) =>
    params.id === caller.user.id ? list.eventCounts(db, caller, true) : fail(ErrorCode.noPermission),
  );

  route(app, api.createPlant, ({ caller, body }) => ingestForgets(plants.createPlant(db, caller, body)), createLimit);
  route(app, api.getPlant, ({ caller, params }) => plants.getPlant(db, caller, params.id));
  route(app, api.editPlant, ({ caller, params, body }) =>
    ingestForgets(plants.editPlant(db, caller, params.id, body, config.dataDir)),
  );
  route(app, api.editPlantInfo, ({ caller, params, body }) =>
    ingestForgets(plants.editPlant(db, caller, params.id, body, config.dataDir)),
  );
  route(app, api.editPlantIncome, ({ caller, params, body }) => plants.editPlant(db, caller, params.id, body, config.dataDir));
  route(app, api.editPlantContacts, ({ caller, params, body }) => plants.editPlant(db, caller, params.id, body, config.dataDir));
  route(app, api.deletePlant, ({ caller, params }) => ingestForgets(plants.deletePlant(db, caller, params.id)));

  route(
    app,
    api.uploadPicture,
    async ({ caller, req }) => {
      const file = await req.file({ limits: { fileSize: limits.plantPictureBytes, files: 1 } });
      if (!file) return fail(ErrorCode.validation, 'file is required');
      const url = await storePicture(db, config.dataDir, caller.user.id, await file.toBuffer());
      if (!url) return fail(ErrorCode.validation, 'file must be a JPG or PNG image');
      return { url };
    },
    { limit: uploadLimit },
  );

  route(app, api.checkGateway, ({ body }) => gateways.checkGateway(db, body), claimLimit);
  route(
    app,
    api.bindGateway,
    ({ caller, params, body }) => ingestForgets(gateways.bindGateway(db, caller, params.id, body)),
    claimLimit,
  );
  route(app, api.unbindGateway, ({ caller, params }) => ingestForgets(gateways.unbindGateway(db, caller, params.sn)));

  route(app, api.sharePlant, ({ caller, params, body }) => sharing.sharePlant(db, caller, params.id, body), lookupLimit);
  route(app, api.getShareUsers, ({ caller, params }) => sharing.shareUsers(db, caller, params.plantId));
  route(app, api.cancelShare, ({ caller, params, body }) => sharing.cancelShare(db, caller, params.plantId, body.userId));
  const transferDeps = (req: FastifyRequest): transfers.TransferDeps => ({
    db,
    mailer,
    portalUrl: config.portalUrl,
    onMailError: (err) => req.log.error({ err }, 'transfer mail failed'),
  });
  route(
    app,
    api.transferPlant,
    ({ caller, params, query, body, req }) =>
      transfers.requestTransfer(transferDeps(req), caller, params.id, query.account, body.password),
    lookupLimit,
  );
  route(app, api.listPlantTransfers, ({ caller }) => transfers.listTransfers(db, caller));
  route(app, api.acceptPlantTransfer, ({ caller, params, req }) =>
    transfers.acceptTransfer(transferDeps(req), caller, params.id),
  );
  route(app, api.declinePlantTransfer, ({ caller, params, req }) =>
    transfers.declineTransfer(transferDeps(req), caller, params.id),
  );
  route(app, api.cancelPlantTransfer, ({ caller, params, req }) =>
    transfers.cancelTransfer(transferDeps(req), caller, params.id),
  );

  route(app, api.plantInverterCount, ({ caller, params }) => devices.inverterCount(db, caller, params.id));
  route(app, api.plantEventCount, ({ caller, params }) => devices.plantEventCount(db, caller, params.id));
  route(app, api.plantInverters, ({ caller, params, query }) => devices.plantInverters(db, caller, params.stationId, query));
  route(app, api.checkDevice, ({ caller, params }) => devices.checkDevices(db, caller, params.stationId));
  route(app, api.plantEvents, ({ caller, params, query, lan }) => devices.plantEvents(db, caller, params.id, query, lan));
}
