/** What the rollout page shows, without React: state order and colours, wave names, times. */
import type { upgradesApi } from '@sunfleet/contracts';
import type { TFunction } from 'i18next';
import { browserZone, formatZoned } from '../../lib/zonedTime.ts';

type UpgradeState = upgradesApi.UpgradeState;
type RolloutState = upgradesApi.RolloutState;

/** The order the states are listed in: under way first, then how they ended. */
export const STATE_ORDER: readonly UpgradeState[] = [
  'pending',
  'sending',
  'downloaded',
  'upgrading',
  'success',
  'download_failed',
  'failed',
  'cancelled',
];
export const OPEN_STATES: readonly UpgradeState[] = ['pending', 'sending', 'downloaded', 'upgrading'];

export const rolloutColour: Record<RolloutState, string> = {
  running: 'processing',
  paused: 'warning',
  completed: 'success',
  cancelled: 'default',
};

/** Wave 0 is the canary. */
export const waveLabel = (t: TFunction<'common'>, wave: number) =>
  wave === 0 ? t('upgrade.rollout.canaryWave') : t('upgrade.rollout.waveN', { n: wave });

/** A rollout spans plants: its times are in the browser's zone, named. */
export const formatWhen = (at: string | null, locale: string) => formatZoned(at, browserZone(), locale);
