/**
 * What the VEN counts in this process, for `/metrics`: webhook calls refused (by reason), events
 * it did not act on (by reason), and reports sent, retried and given up. Per process, like every
 * counter: each process is scraped on its own.
 */
export const venStats = {
  webhookRefused: { unauthorized: 0, throttled: 0, malformed: 0 } as Record<'unauthorized' | 'throttled' | 'malformed', number>,
  eventsIgnored: { programme: 0, targets: 0 } as Record<'programme' | 'targets', number>,
  reports: { sent: 0, retried: 0, dead: 0 } as Record<'sent' | 'retried' | 'dead', number>,
};
