/**
 * Files for running Mosquitto (2.x) as the external broker: a password file in
 * `mosquitto_passwd` format, the ACL that confines each gateway to its own tree, and a config
 * with a gateway listener (client id forced to the username) and a server listener.
 *
 * Our store keeps only SHA-256 of a gateway secret, and Mosquitto needs its own PBKDF2 hash of
 * the secret itself: entries are made when the secret is known (provisioning, rotation), with
 * `upsertMosquittoUser`, then Mosquitto is sent SIGHUP to reload.
 */
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { mqttLimits, TOPIC_ROOT } from '@sunfleet/contracts';

/** Mosquitto 2.x `$7$`: PBKDF2-HMAC-SHA512, 101 iterations, 12-byte salt, 64-byte key, base64. */
export function mosquittoPasswordHash(password: string, salt: Buffer = randomBytes(12), iterations = 101): string {
  const key = pbkdf2Sync(password, salt, iterations, 64, 'sha512');
  return `$7$${iterations}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export interface MosquittoUser {
  username: string;
  password: string;
}

function checkUsername(username: string): void {
  if (!username || /[:\s]/.test(username)) throw new Error(`username "${username}" cannot go in a Mosquitto password file`);
}

export function mosquittoPasswordLine({ username, password }: MosquittoUser): string {
  checkUsername(username);
  return `${username}:${mosquittoPasswordHash(password)}`;
}

/**
 * The ACL: gateways (username = SN = client id) publish only their own `up/` channels and read
 * only their own `down/cmd`; the server users read every `up/` and write every `down/cmd`.
 * Nothing else is listed, so `$SYS`, `#` and other gateways' topics are denied.
 */
export function mosquittoAcl(serverUsers: string[]): string {
  const lines = [
    '# Sunfleet gateway protocol ACL (generated). Patterns apply to every user.',
    ...['data', 'event', 'reply', 'state'].map((ch) => `pattern write ${TOPIC_ROOT}/%u/up/${ch}`),
    `pattern read ${TOPIC_ROOT}/%u/down/cmd`,
    '',
  ];
  for (const u of serverUsers) {
    checkUsername(u);
    lines.push(`user ${u}`, `topic read ${TOPIC_ROOT}/+/up/#`, `topic write ${TOPIC_ROOT}/+/down/cmd`, '');
  }
  return lines.join('\n');
}

export interface MosquittoConfigOptions {
  passwordFile: string;
  aclFile: string;
  /** Where gateways connect: client id is replaced by the username, so no one can take another's session. */
  gatewayListener: { port: number; host?: string };
  /** Where the server's ingest processes connect (several may share one username here). Keep it private. */
  serverListener: { port: number; host?: string };
  persistence?: boolean;
  /** When started as root, the user to run as (Mosquitto's default is `mosquitto`). */
  user?: string;
}

export function mosquittoConfig(o: MosquittoConfigOptions): string {
  return [
    '# Sunfleet external broker (generated)',
    'per_listener_settings false',
    'allow_anonymous false',
    `password_file ${o.passwordFile}`,
    `acl_file ${o.aclFile}`,
    `message_size_limit ${mqttLimits.maxPayloadBytes}`,
    `persistence ${o.persistence ? 'true' : 'false'}`,
    // Ingest holds its acknowledgements while its store is behind (back-pressure): the broker is
    // the buffer then, so its per-client queue must be far above Mosquitto's default of 1000.
    'max_queued_messages 200000',
    // Ingest acknowledges a message only once it is stored (about one commit, 50-100 ms): the
    // in-flight window to each ingest client must hold that long's worth (Mosquitto's default: 20).
    'max_inflight_messages 1000',
    ...(o.user ? [`user ${o.user}`] : []),
    '',
    `listener ${o.gatewayListener.port}${o.gatewayListener.host ? ` ${o.gatewayListener.host}` : ''}`,
    'use_username_as_clientid true',
    '',
    `listener ${o.serverListener.port}${o.serverListener.host ? ` ${o.serverListener.host}` : ''}`,
    '',
  ].join('\n');
}

/** Write the password file (mode 600) and the ACL file, each atomically (temp file + rename). */
export function writeMosquittoAuth(o: {
  passwordFile: string;
  aclFile: string;
  users: MosquittoUser[];
  serverUsers: string[];
}): void {
  writeAtomic(o.passwordFile, `${o.users.map(mosquittoPasswordLine).join('\n')}\n`, 0o600);
  writeAtomic(o.aclFile, mosquittoAcl(o.serverUsers), 0o644);
}

/** Add or replace one user's line (a newly provisioned gateway, a rotated secret). */
export function upsertMosquittoUser(passwordFile: string, user: MosquittoUser): void {
  const line = mosquittoPasswordLine(user);
  const existing = fs.existsSync(passwordFile) ? fs.readFileSync(passwordFile, 'utf8').split('\n') : [];
  const kept = existing.filter((l) => l && !l.startsWith(`${user.username}:`));
  writeAtomic(passwordFile, `${[...kept, line].join('\n')}\n`, 0o600);
}

/** Remove a user's line (a deleted gateway). */
export function removeMosquittoUser(passwordFile: string, username: string): void {
  if (!fs.existsSync(passwordFile)) return;
  const kept = fs
    .readFileSync(passwordFile, 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith(`${username}:`));
  writeAtomic(passwordFile, kept.length ? `${kept.join('\n')}\n` : '', 0o600);
}

function writeAtomic(file: string, text: string, mode: number): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, text, { mode });
  fs.renameSync(tmp, file);
}
