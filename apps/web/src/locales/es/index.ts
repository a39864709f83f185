/** The es catalogue: every namespace, one chunk loaded at start when the interface is in es. */
import account from './account.json';
import auth from './auth.json';
import common from './common.json';
import devices from './devices.json';
import energyHub from './energyHub.json';
import events from './events.json';
import menu from './menu.json';
import overview from './overview.json';
import pages from './pages.json';
import plants from './plants.json';
import settings from './settings.json';
import system from './system.json';
import workdata from './workdata.json';

export default { common, auth, account, menu, pages, plants, overview, devices, events, workdata, system, settings, energyHub };
