/** The es catalogue: every namespace, one chunk loaded at start when the interface is in es. */
import account from './account.json';
import audit from './audit.json';
import auth from './auth.json';
import common from './common.json';
import customers from './customers.json';
import devices from './devices.json';
import energyHub from './energyHub.json';
import enterprise from './enterprise.json';
import events from './events.json';
import firmware from './firmware.json';
import gatewayStock from './gatewayStock.json';
import maintenance from './maintenance.json';
import menu from './menu.json';
import overview from './overview.json';
import pages from './pages.json';
import plants from './plants.json';
import settings from './settings.json';
import system from './system.json';
import versions from './versions.json';
import workdata from './workdata.json';

export default {
  common,
  auth,
  account,
  menu,
  pages,
  plants,
  overview,
  devices,
  events,
  workdata,
  system,
  settings,
  maintenance,
  versions,
  firmware,
  customers,
  enterprise,
  audit,
  gatewayStock,
  energyHub,
};
