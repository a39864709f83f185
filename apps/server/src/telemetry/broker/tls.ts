/**
 * The embedded broker's TLS certificate and key: the operator's files (`MQTT_TLS_CERT`,
 * `MQTT_TLS_KEY`), or, outside production, a self-signed pair made once in
 * `<DATA_DIR>/keys/mqtt-tls.{crt,key}` (written with `wx`, so processes sharing the folder agree)
 * whose SHA-256 fingerprint is logged: gateways pin that certificate (`docs/protocol.md`).
 */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { generate } from 'selfsigned';

export interface BrokerTls {
  key: string;
  cert: string;
  /** The certificate file (what a local client, the demo simulator, trusts). */
  certFile: string;
  /** SHA-256 of the certificate (DER), colon-separated hex, as `openssl x509 -fingerprint -sha256` prints it. */
  fingerprint: string;
}

export interface TlsFiles {
  certFile: string | null;
  keyFile: string | null;
}

const fingerprintOf = (cert: string) => new X509Certificate(cert).fingerprint256;

/** The names a local client may use for the broker: the certificate's subject alternative names. */
function localNames() {
  const names = new Set(['localhost', os.hostname()]);
  return [
    ...[...names].map((value) => ({ type: 2 as const, value })),
    { type: 7 as const, ip: '127.0.0.1' },
    { type: 7 as const, ip: '::1' },
  ];
}

async function makeSelfSigned(dataDir: string, log: Pick<Logger, 'info'>): Promise<TlsFiles & { made: boolean }> {
  const dir = path.join(dataDir, 'keys');
  const certFile = path.join(dir, 'mqtt-tls.crt');
  const keyFile = path.join(dir, 'mqtt-tls.key');
  if (fs.existsSync(certFile) && fs.existsSync(keyFile)) return { certFile, keyFile, made: false };
  fs.mkdirSync(dir, { recursive: true });
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 10 * 365 * 86_400_000);
  const pems = await generate([{ name: 'commonName', value: `sunfleet-mqtt-${os.hostname()}` }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: localNames() },
    ],
  });
  try {
    // The key first: a process that finds the certificate finds its key too.
    fs.writeFileSync(keyFile, pems.private, { flag: 'wx', mode: 0o600 });
    fs.writeFileSync(certFile, pems.cert, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another process made them at the same moment: its pair is the one.
    for (let i = 0; i < 50 && !fs.existsSync(certFile); i++) await new Promise((r) => setTimeout(r, 20));
    return { certFile, keyFile, made: false };
  }
  log.info({ certFile }, 'MQTT TLS: made a self-signed certificate for the embedded broker');
  return { certFile, keyFile, made: true };
}

/**
 * The broker's certificate and key: the given files, or the self-signed pair in the data folder,
 * made on first start (the configuration allows that outside production only).
 */
export async function brokerTls(files: TlsFiles, dataDir: string, log: Pick<Logger, 'info'>): Promise<BrokerTls> {
  const chosen: TlsFiles = files.certFile && files.keyFile ? files : await makeSelfSigned(dataDir, log);
  const cert = fs.readFileSync(chosen.certFile!, 'utf8');
  const key = fs.readFileSync(chosen.keyFile!, 'utf8');
  const fingerprint = fingerprintOf(cert);
  log.info({ certFile: chosen.certFile, fingerprint }, 'MQTT TLS certificate (SHA-256 fingerprint: gateways pin it)');
  return { key, cert, certFile: chosen.certFile!, fingerprint };
}
