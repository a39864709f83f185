/** What other parts use of upgrades: the routes, the runner (jobs role), and the firmware-in-use check. */
export { upgradeCtx } from './engine.ts';
export { upgradeRoutes } from './routes.ts';
export { createUpgradeRunner, startUpgradeRunner } from './runner.ts';
export { firmwareInUseByRollout } from './upgrades.repo.ts';
