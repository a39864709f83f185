/** Routes of the gateway stock (system gateway management): thin. */
import { gatewayStockApi as api, ErrorCode } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { withLongStatements } from '../../db/timeouts.ts';
import { fail } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { readStockFile, readStockUpload, sendGatewayList, sendTemplate } from './sheet.ts';
import * as stock from './stock.service.ts';
import { texts } from './texts.ts';

export function gatewayStockRoutes(app: FastifyInstance) {
  const { db } = app.deps;
  const effects = stock.processEffects(app.deps.ingest, app.deps.revokeGateways, app.deps.brokerAccounts, app.log);
  // Provisioning: a gateway made here is given the key it checks firmware signatures with.
  const firmwareKey = app.deps.firmwareSigner.publicKey;
  const provisioned = (g: stock.Created) => ({ ...g, firmwareKey });
  const provisionedAll = (r: stock.ImportResult) => ({ ...r, gateways: r.gateways.map(provisioned) });

  route(app, api.importOneCheck, ({ query, body }) => stock.checkOne(db, query.customerId, body));
  route(app, api.importOne, async ({ caller, query, body, lan }) =>
    provisioned(await stock.createOne(db, caller, { ...body, customerId: query.customerId }, lan, effects, 'import')),
  );
  route(app, api.createGateway, async ({ caller, body, lan }) =>
    provisioned(await stock.createOne(db, caller, body, lan, effects)),
  );
  route(app, api.batchCreate, async ({ caller, body }) =>
    provisionedAll(
      await stock.createMany(db, caller, stock.batchRows(body.items), body.customerId ?? null, body.mode, effects, 'batch'),
    ),
  );
  route(app, api.importCheck, async ({ req, lan }) => {
    const upload = await readStockUpload(req, lan);
    const rows = await readStockFile(upload.bytes, lan);
    return withLongStatements(db, (conn) => stock.checkMany(conn, rows, upload.customerId));
  });
  route(app, api.importBatch, async ({ caller, req, lan }) => {
    const upload = await readStockUpload(req, lan);
    const mode = upload.mode ?? fail(ErrorCode.validation, texts(lan).badMode);
    const rows = await readStockFile(upload.bytes, lan);
    return provisionedAll(
      await withLongStatements(db, (conn) => stock.createMany(conn, caller, rows, upload.customerId, mode, effects, 'import')),
    );
  });
  route(app, api.importTemplate, ({ reply, lan }) => sendTemplate(reply, lan));
  route(app, api.assignGateways, ({ caller, body }) => stock.assign(db, caller, body.ids, body.customerId, effects));
  route(app, api.updateProtocol, ({ caller, body, lan }) =>
    stock.updateProtocol(db, caller, body.ids, body.protocol, lan, effects),
  );
  route(app, api.deleteGateway, ({ caller, params }) => stock.deleteOne(db, caller, params.id, effects));
  route(app, api.downloadGateways, ({ caller, query, reply, lan }) => sendGatewayList(db, caller, reply, query, lan));
}
