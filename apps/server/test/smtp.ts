/** A real SMTP server on a loopback port: the portal's mail goes through it in tests. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
}

export interface TestSmtp {
  url: string;
  messages: ReceivedMail[];
  /** Wait for the next message to `to` that arrived after `since` messages. */
  waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The 6-digit code in the newest message to `to`. */
  codeFor(to: string): Promise<string>;
  close(): Promise<void>;
}

function decodeSubject(raw: string): string {
  const m = raw.match(/^Subject: (.*(?:\r?\n[ \t].*)*)/m);
  if (!m?.[1]) return '';
  return (
    m[1]
      .replace(/\r?\n[ \t]/g, ' ')
      // RFC 2047: white space between two encoded words is not part of the text.
      .replace(/\?=\s+=\?/g, '?==?')
      .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
        enc.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64').toString('utf8')
          : Buffer.from(
              text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
              'latin1',
            ).toString('utf8'),
      )
  );
}

export async function startSmtp(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<{ to: string; seen: number; resolve: (m: ReceivedMail) => void }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // No reverse DNS look-up of the loopback client.
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail = { to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw, subject: decodeSubject(raw) };
        messages.push(mail);
        for (const w of [...waiters]) {
          if (mail.to.includes(w.to)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(mail);
          }
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const latest = (to: string) => [...messages].reverse().find((m) => m.to.includes(to.toLowerCase()));
  const api: TestSmtp = {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(to, timeoutMs = 5000) {
      const target = to.toLowerCase();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          to: target,
          seen: messages.length,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    async codeFor(to) {
      const mail = latest(to) ?? (await api.waitFor(to));
      const code = mail.subject.match(/(\d{6})\s*$/)?.[1];
      if (!code) throw new Error(`no code in mail to ${to}: ${mail.subject}`);
      return code;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return api;
}
