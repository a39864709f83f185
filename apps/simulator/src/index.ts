// @sunfleet/simulator: virtual gateways with virtual devices speaking the gateway protocol.
// Never imported by the server: it runs the CLI (src/cli.ts) as a child process.
export { type Clock, type ClockOptions, createClock } from './clock.ts';
export { type CommandOutcome, executeCommand, parseCommand } from './commands.ts';
export { type DemoFleetOptions, deviceSn, type GatewayCredentials, makeDemoFleet, type Place, places } from './demo.ts';
export type { Environment, GridSupply } from './devices/device.ts';
export { createFleet, type Fleet, type FleetOptions, type FleetStats } from './fleet.ts';
export { type GatewayOptions, type GatewaySpec, type GatewayStats, VirtualGateway } from './gateway.ts';
export { createLoad, type Load, type LoadOptions, type LoadReport, loadDevices, runLoad } from './load-generator.ts';
export { type DeviceSpec, Plant, type PlantOptions, type PlantSpec, type PlantType } from './plant.ts';
