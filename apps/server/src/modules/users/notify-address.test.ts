/**
 * GET user/notify/code to an address the contract's pattern lets through but the mail server
 * refuses for good (a domain label starting with a hyphen): bad input (400, code 4), not a
 * server fault. An address it takes still gets its code.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signedIn } from '../../../test/account.ts';
import { invalidInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer } from '../../../test/harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

it('an address the mail server refuses is code 4 (HTTP 400), and a good one still gets its code', async () => {
  const me = await signedIn(s);
  const refused = await s.call(me.access, 'GET', `/api/v1/user/notify/code?email=${encodeURIComponent('a@x.--bad-.example')}`);
  expect(refused.status).toBe(400);
  expect(refused.body).toEqual(invalidInput('the mail server refuses this e-mail address'));
  const next = s.smtp.waitFor('alerts@example.com');
  const ok = await s.call(me.access, 'GET', `/api/v1/user/notify/code?email=${encodeURIComponent('alerts@example.com')}`);
  expect(ok.body).toEqual({ code: ErrorCode.ok, msg: 'ok', data: null });
  await next;
});
