/**
 * The command sweeper: every `intervalMs`, queued jobs past their expiry expire, sent ones past
 * their timeout time out, sent ones without an answer are sent again, and online gateways get
 * their queued jobs. Runs in every process with the ingest or jobs role; the transitions are
 * conditional updates and claims, so several processes sweeping at once change each job once.
 */
import { type PeriodicJob, startPeriodic } from '../jobs/periodic.ts';
import type { Logger } from '../log.ts';
import type { CommandService } from './service.ts';

export function startCommandSweeper(
  commands: CommandService,
  log: Logger,
  intervalMs = 1000,
): PeriodicJob<Awaited<ReturnType<CommandService['sweep']>>> {
  return startPeriodic(
    () => commands.sweep(),
    intervalMs,
    (r) => {
      if (r.expired + r.timedOut > 0) log.info(r, 'command jobs expired or timed out');
    },
    (err) => log.error({ err }, 'command sweep failed; trying again'),
  );
}
