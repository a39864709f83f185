/** Firmware library routes: images, products, inverter types. */
import { firmwareApi as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import * as catalog from './catalog.service.ts';
import * as firmware from './firmware.service.ts';
import { readFirmwareUpload } from './upload.ts';

const enabledFilter = (v: '0' | '1' | undefined) => (v === undefined ? undefined : v === '1');

export function firmwareRoutes(app: FastifyInstance) {
  const { db, config, firmwareSigner } = app.deps;
  const store: firmware.FirmwareStore = { db, dataDir: config.dataDir, signer: firmwareSigner };

  route(app, api.inverterFirmwarePage, ({ query }) =>
    firmware.listFirmware(db, { type: 'inverter', ...query, enabled: enabledFilter(query.enabled) }, query.page, query.size),
  );
  route(app, api.gatewayFirmwarePage, ({ query }) =>
    firmware.listFirmware(db, { type: 'gateway', ...query, enabled: enabledFilter(query.enabled) }, query.page, query.size),
  );
  route(app, api.inverterFirmware, ({ params }) => firmware.getFirmware(db, 'inverter', params.id));
  route(app, api.gatewayFirmware, ({ params }) => firmware.getFirmware(db, 'gateway', params.id));
  route(app, api.checkInverterFirmware, ({ query }) => firmware.checkFirmware(db, 'inverter', query));
  route(app, api.checkGatewayFirmware, ({ query }) => firmware.checkFirmware(db, 'gateway', query));
  route(app, api.saveInverterFirmware, async ({ caller, req }) => {
    const upload = await readFirmwareUpload(req, config.dataDir);
    if ('id' in upload.fields) {
      await upload.file?.blob.discard();
      return firmware.editFromUpload(db, caller, upload);
    }
    return firmware.addFirmware(store, caller, 'inverter', upload);
  });
  route(app, api.addGatewayFirmware, async ({ caller, req }) =>
    firmware.addFirmware(store, caller, 'gateway', await readFirmwareUpload(req, config.dataDir)),
  );
  route(app, api.editGatewayFirmware, ({ caller, params, body }) =>
    firmware.editFirmware(db, caller, 'gateway', params.id, body),
  );
  route(app, api.changeFirmwareEnable, ({ caller, params, query }) =>
    firmware.setEnabled(db, caller, params.id, query.enable === '1'),
  );
  route(app, api.deleteFirmware, async ({ caller, params }) => {
    await firmware.deleteFirmware(store, caller, [params.id]);
    return null;
  });
  route(app, api.batchDeleteFirmware, async ({ caller, query }) => ({
    deleted: await firmware.deleteFirmware(store, caller, query.ids),
  }));
  route(app, api.firmwareVersions, ({ caller, query }) => firmware.versions(db, caller, query));

  route(app, api.products, ({ query }) => catalog.productsOfType(db, query.type));
  route(app, api.product, ({ params }) => catalog.getProduct(db, params.id));
  route(app, api.saveGatewayProduct, ({ caller, body }) => catalog.saveGatewayProduct(db, caller, body));
  route(app, api.inverterProducts, ({ query }) => catalog.productPage(db, query, query.page ?? 1, query.size ?? 10));
  route(app, api.checkInverterProduct, ({ query }) => catalog.checkProductName(db, 'inverter', query.name, query.id));
  route(app, api.addInverterProduct, ({ caller, body }) => catalog.addInverterProduct(db, caller, body));
  route(app, api.editInverterProduct, ({ caller, params, body }) => catalog.editInverterProduct(db, caller, params.id, body));
  route(app, api.deleteInverterProducts, ({ caller, body }) => catalog.deleteInverterProducts(db, caller, body.ids));
  route(app, api.hardwareVersions, ({ query }) => catalog.hardwareVersions(db, query.productId));
  route(app, api.gatewaySoftware, ({ query }) => catalog.gatewaySoftware(db, query.productId));

  route(app, api.inverterTypes, () => catalog.listInverterTypes(db));
  route(app, api.checkInverterType, ({ query }) => catalog.checkInverterTypeName(db, query.name, query.id));
  route(app, api.addInverterType, ({ caller, body }) => catalog.addInverterType(db, caller, body.name));
  route(app, api.editInverterType, ({ caller, params, body }) => catalog.renameInverterType(db, caller, params.id, body.name));
  route(app, api.moveInverterType, ({ caller, params, body }) => catalog.moveInverterType(db, caller, params.id, body.direction));
  route(app, api.deleteInverterType, ({ caller, params }) => catalog.deleteInverterType(db, caller, params.id));
}
