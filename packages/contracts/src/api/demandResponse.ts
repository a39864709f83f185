/**
 * Demand response: the energy-programme area. Programmes come from the OpenADR 3 VTN the portal
 * takes part in as one virtual node (VEN); a user enrols storage devices of their plants in a
 * programme, after accepting its terms; the VTN's events become battery commands, and the user
 * sees each event with what was sent to each device and what the device did, and may opt out.
 *
 * Codes: 6001 the device is already in this enrolment; 6002 no such device the caller may see (or
 * another tenant's); 6003 no such enrolment of the caller; 6004 the device is in another
 * enrolment; 6005 the utility account number is already enrolled in the programme; 6006 the
 * same SN twice in one request; 601 the device is not a storage inverter the VEN can command;
 * 2 the caller may not operate the device; 700 a plant the caller cannot see; 404 an event the
 * caller has no enrolment for; 1005 an event that has ended or was cancelled cannot be opted out
 * of; 4 bad input (also a programme the VTN does not offer, or no VTN connected).
 */
import Type from 'typebox';
import { endpoint, Paged, PageQuery } from '../endpoint.ts';
import { ErrorCode } from '../errors.ts';
import { Day, Id, IdParams, Instant, Literals, Nullable, Sn } from '../schemas.ts';

/**
 * The programmes whose terms the portal ships: a programme the VTN offers under one of these
 * names (programName, compared without case) has its terms at `/assets/vpp/<file>`
 * (apps/web/public/assets/vpp, written by apps/web/build/vpp-terms.ts). Enrolment needs them.
 */
export const PROGRAMME_TERMS = [
  { name: 'BESS-DR-2026', title: 'Battery Demand Response 2026', file: 'bess-dr-2026.pdf' },
  { name: 'PEAK-RELIEF', title: 'Peak Relief', file: 'peak-relief.pdf' },
  { name: 'SUMMER-SAVER', title: 'Summer Saver', file: 'summer-saver.pdf' },
  { name: 'GRID-FLEX-CAPACITY', title: 'Grid Flex Capacity', file: 'grid-flex-capacity.pdf' },
] as const;
export const TERMS_PATH = '/assets/vpp/';

export const ENROLLMENT_STATES = ['invited', 'pending', 'accepted', 'rejected', 'unenrolled'] as const;
export const EVENT_STATES = ['active', 'completed', 'cancelled', 'pending'] as const;
export const DISPATCH_ACTIONS = ['discharge', 'charge', 'hold', 'restore'] as const;
export const DISPATCH_STATES = ['planned', 'sending', 'succeeded', 'failed', 'skipped'] as const;

/** A utility account number: lowercase letters, digits, underscore or dash, at most 16. */
export const UTILITY_ACCOUNT_PATTERN = '^[a-z0-9_-]{1,16}$';
/** A source account number: digits only. */
export const SOURCE_ACCOUNT_PATTERN = '^[0-9]{1,32}$';
export const MAX_ENROLLED_DEVICES = 50;

const Text = (max: number, description?: string) =>
  Type.String({ minLength: 1, maxLength: max, ...(description ? { description } : {}) });
const Kw = (description: string) => Type.Number({ minimum: 0, maximum: 10_000, multipleOf: 0.01, description });

export const Address = Type.Object({
  country: Text(64),
  region: Text(128),
  locality: Text(128),
  extendedAddress: Type.Optional(Type.String({ maxLength: 128 })),
  streetAddress: Text(128),
  postalCode: Text(16),
});

export const EnrolledDeviceInput = Type.Object({
  sn: Sn,
  manufacturer: Text(64),
  model: Text(64),
  installDate: Type.Optional(Day),
  chargeCapacity: Kw('kW the battery may charge at'),
  dischargeCapacity: Kw('kW the battery may discharge at'),
  storageCapacity: Kw('kWh it stores'),
});

export const EnrollmentInput = Type.Object({
  programId: Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-zA-Z0-9_-]+$' }),
  email: Type.String({ format: 'email', maxLength: 254 }),
  firstName: Text(64),
  lastName: Text(64),
  serviceAddress: Address,
  mailingAddress: Address,
  sourceAccount: Type.String({ pattern: SOURCE_ACCOUNT_PATTERN, description: 'digits' }),
  utilityAccount: Type.String({ pattern: UTILITY_ACCOUNT_PATTERN, description: 'lowercase letters, digits, _ or -, at most 16' }),
  termsAccepted: Type.Literal(true, { description: 'the programme’s terms were shown and accepted' }),
  stationId: Type.Optional(Id),
  devices: Type.Array(EnrolledDeviceInput, { maxItems: MAX_ENROLLED_DEVICES }),
});

export const EnrolledDevice = Type.Object({
  sn: Type.String(),
  stationId: Nullable(Type.Integer()),
  manufacturer: Type.String(),
  model: Type.String(),
  installDate: Nullable(Day),
  chargeCapacity: Type.Number(),
  dischargeCapacity: Type.Number(),
  storageCapacity: Type.Number(),
  registered: Type.Boolean({ description: 'a resource at the VTN' }),
  addedAt: Instant,
});

export const EnrollmentState = Literals(ENROLLMENT_STATES);

export const EnrollmentItem = Type.Object({
  id: Type.Integer(),
  programId: Type.String(),
  programName: Type.String(),
  state: EnrollmentState,
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  utilityAccount: Type.String(),
  devices: Type.Integer(),
  createdAt: Instant,
  updatedAt: Instant,
});

export const AddressView = Type.Object({
  country: Nullable(Type.String()),
  region: Nullable(Type.String()),
  locality: Nullable(Type.String()),
  extendedAddress: Nullable(Type.String()),
  streetAddress: Nullable(Type.String()),
  postalCode: Nullable(Type.String()),
});

export const Enrollment = Type.Object({
  ...EnrollmentItem.properties,
  serviceAddress: AddressView,
  mailingAddress: AddressView,
  sourceAccount: Type.String(),
  stationId: Nullable(Type.Integer()),
  termsAcceptedAt: Instant,
  deviceList: Type.Array(EnrolledDevice),
});

export const Program = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Nullable(Type.String({ description: 'the PROGRAM_TYPE attribute' })),
  termsUrl: Nullable(
    Type.String({ description: 'the terms PDF served under /assets/vpp/; null for a programme without local terms' }),
  ),
  descriptionUrls: Type.Array(Type.String()),
});

/** The VEN's connection to the VTN: whether it is registered there and how its last upkeep went. */
export const VtnConnection = Type.Object({
  registered: Type.Boolean({ description: 'the VTN has the portal’s VEN (checked on every upkeep)' }),
  lastPollAt: Nullable(Instant),
  lastOkAt: Nullable(Instant),
  lastError: Nullable(Type.String({ description: 'what the last upkeep failed on; null when it went through' })),
});

export const ProgramList = Type.Object({
  connected: Type.Boolean({ description: 'a VTN is configured' }),
  live: Type.Boolean({ description: 'read from the VTN just now (false: the last list read, the VTN did not answer)' }),
  programs: Type.Array(Program),
  vtn: Nullable(VtnConnection),
});

export const listPrograms = endpoint({
  method: 'GET',
  path: '/api/v1/oadr/listProgram',
  access: 'energyhub.view',
  summary: 'The programmes the connected VTN offers, with their terms; connected false when no VTN is configured',
  data: ProgramList,
});

export const listEnrollments = endpoint({
  method: 'GET',
  path: '/api/v1/oadr/enrollments',
  access: 'energyhub.view',
  summary: 'The caller’s enrolments, newest first',
  query: Type.Object({ ...PageQuery, state: Type.Optional(EnrollmentState) }),
  data: Paged(EnrollmentItem),
});

export const getEnrollment = endpoint({
  method: 'GET',
  path: '/api/v1/oadr/enrollment/:id',
  access: 'energyhub.view',
  summary: 'One of the caller’s enrolments with its addresses and devices (6003 when it is not theirs)',
  params: IdParams,
  data: Enrollment,
  tolerate: [ErrorCode.drEnrollmentMissing],
});

export const enrollmentState = endpoint({
  method: 'GET',
  path: '/api/v1/oadr/enrollment/:id/state',
  access: 'energyhub.view',
  summary: 'An enrolment’s state: invited, pending, accepted, rejected or unenrolled',
  params: IdParams,
  data: Type.Object({ id: Type.Integer(), state: EnrollmentState, updatedAt: Instant }),
  tolerate: [ErrorCode.drEnrollmentMissing],
});

export const enroll = endpoint({
  method: 'POST',
  path: '/api/v1/oadr/enrollment',
  access: 'energyhub.enroll',
  encoding: 'json',
  writes: true,
  summary:
    'Enrol in a programme after accepting its terms, with storage devices the caller may operate (pending until the VTN has them, invited without devices)',
  body: EnrollmentInput,
  data: Enrollment,
  tolerate: [
    ErrorCode.validation,
    ErrorCode.inverterUnsupported,
    ErrorCode.drDeviceExists,
    ErrorCode.drDeviceMissing,
    ErrorCode.drDeviceUsed,
    ErrorCode.drAccountBound,
    ErrorCode.drSameSn,
  ],
});

export const addDevices = endpoint({
  method: 'POST',
  path: '/api/v1/oadr/enrollment/:id/devices',
  access: 'energyhub.enroll',
  encoding: 'json',
  writes: true,
  summary: 'Add storage devices to an enrolment',
  params: IdParams,
  body: Type.Object({ devices: Type.Array(EnrolledDeviceInput, { minItems: 1, maxItems: MAX_ENROLLED_DEVICES }) }),
  data: Enrollment,
  tolerate: [
    ErrorCode.inverterUnsupported,
    ErrorCode.drDeviceExists,
    ErrorCode.drDeviceMissing,
    ErrorCode.drEnrollmentMissing,
    ErrorCode.drDeviceUsed,
    ErrorCode.drSameSn,
  ],
});

export const removeDevice = endpoint({
  method: 'POST',
  path: '/api/v1/oadr/enrollment/:id/devices/:sn/remove',
  access: 'energyhub.enroll',
  writes: true,
  summary: 'Remove a device from an enrolment (its resource is removed at the VTN)',
  params: Type.Object({ id: Id, sn: Sn }),
  data: Enrollment,
  tolerate: [ErrorCode.drDeviceMissing, ErrorCode.drEnrollmentMissing],
});

export const unenroll = endpoint({
  method: 'POST',
  path: '/api/v1/oadr/enrollment/:id/unenroll',
  access: 'energyhub.unenroll',
  writes: true,
  summary: 'End an enrolment: its devices leave the programme and take no further events',
  params: IdParams,
  data: Enrollment,
  tolerate: [ErrorCode.drEnrollmentMissing],
});

export const TimezoneEntry = Type.Object({ id: Type.String(), offset: Type.String() });

export const timezones = endpoint({
  method: 'GET',
  path: '/api/v1/oadr/timezones',
  access: 'energyhub.view',
  summary: 'The time zones with their offsets now, west to east',
  data: Type.Array(TimezoneEntry),
});

export const StationItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  timezone: Type.String(),
  storageDevices: Type.Integer({ description: 'storage inverters the caller may enrol' }),
});

export const userStations = endpoint({
  method: 'GET',
  path: '/api/v1/oadr/userStationList/:id',
  access: 'energyhub.view',
  summary: 'The plants of the account (the caller’s own id) that the caller may operate, with how many storage devices each has',
  params: IdParams,
  data: Type.Array(StationItem),
});

/** Why a device with a battery cannot take part in demand response. */
export const DR_EXCLUSIONS = ['noPowerControl'] as const;

export const MasterDevice = Type.Object({
  sn: Type.String(),
  alias: Nullable(Type.String()),
  manufacturer: Type.String(),
  model: Type.String(),
  installDate: Nullable(Day),
  chargeCapacity: Nullable(Type.Number({ description: 'kW' })),
  dischargeCapacity: Nullable(Type.Number({ description: 'kW' })),
  storageCapacity: Nullable(Type.Number({ description: 'kWh' })),
  enrolled: Type.Boolean({ description: 'already in an active enrolment' }),
  cannotTakePart: Type.Union([Type.Literal(DR_EXCLUSIONS[0]), Type.Null()], {
    description: 'why the device cannot take part (noPowerControl: its registers cannot force its battery); null when it can',
  }),
});

export const stationMasterDevice = endpoint({
  method: 'GET',
  path: '/api/v1/oadr/stationMasterDevice/:stationId',
  access: 'energyhub.view',
  summary:
    'The plant’s devices with a battery the caller may enrol, first the master, with what the portal knows of them and why one cannot take part',
  params: Type.Object({ stationId: Id }),
  data: Type.Array(MasterDevice),
  tolerate: [ErrorCode.plantMissing],
});

export const stationTimezone = endpoint({
  method: 'GET',
  path: '/api/v1/oadr/stationTimezoneId/:stationId',
  access: 'energyhub.view',
  summary: 'The plant’s time zone',
  params: Type.Object({ stationId: Id }),
  data: Type.Object({ stationId: Type.Integer(), timezone: Type.String(), offset: Type.String() }),
  tolerate: [ErrorCode.plantMissing],
});

export const EventState = Literals(EVENT_STATES);

export const EventItem = Type.Object({
  id: Type.Integer(),
  vtnEventId: Type.String(),
  programId: Type.String(),
  programName: Nullable(Type.String()),
  name: Nullable(Type.String()),
  state: EventState,
  optedOut: Type.Boolean(),
  participationLevel: Nullable(Type.Integer({ description: 'SIMPLE level 0..3 of the first interval' })),
  powerDischarge: Nullable(Type.Number({ description: 'kW the first discharge interval asks of the portal' })),
  start: Nullable(Instant),
  end: Nullable(Instant),
  /** Wall-clock times in the zone below, "YYYY-MM-DD HH:mm:ss". */
  localStart: Nullable(Type.String()),
  localEnd: Nullable(Type.String()),
  timezone: Type.String(),
  durationMinutes: Nullable(Type.Integer()),
  ignoredReason: Nullable(
    Type.String({ description: 'why the portal does not act on it (its targets, its programme); null when it does' }),
  ),
  endedReason: Nullable(Type.String({ description: 'why it ended before its window (the VTN no longer has it)' })),
});

export const listEvents = endpoint({
  method: 'GET',
  path: '/api/v1/oadr/events',
  access: 'energyhub.view',
  summary: 'Events of the programmes the caller is enrolled in, newest first, with their state now',
  query: Type.Object({ ...PageQuery, state: Type.Optional(EventState) }),
  data: Paged(EventItem),
});

export const DispatchView = Type.Object({
  sn: Type.String(),
  intervalId: Type.Integer({ description: '-1: the restore at the end' }),
  action: Literals(DISPATCH_ACTIONS),
  targetPower: Type.Number({ description: 'kW' }),
  start: Instant,
  end: Instant,
  state: Literals(DISPATCH_STATES),
  sent: Nullable(Type.Record(Type.String(), Type.Number(), { description: 'setting values written' })),
  previous: Nullable(
    Type.Record(Type.String(), Type.Number(), { description: 'the values before (what a restore writes back)' }),
  ),
  settingGroup: Nullable(Type.String()),
  jobId: Nullable(Type.String()),
  reason: Nullable(Type.String({ description: 'why it failed or was skipped' })),
  deliveredPower: Nullable(Type.Number({ description: 'kW the battery delivered in the interval (mean, + discharge)' })),
});

export const EventInterval = Type.Object({
  id: Type.Integer(),
  start: Instant,
  end: Instant,
  action: Type.String(),
  power: Nullable(Type.Number({ description: 'kW for the whole VEN' })),
  level: Nullable(Type.Integer()),
});

export const REPORT_STATES = ['waiting', 'sent', 'given-up'] as const;

/** The report the VEN owes the VTN for the event: waiting (retried), sent, or given up and why. */
export const EventReport = Type.Object({
  state: Literals(REPORT_STATES),
  attempts: Type.Integer(),
  lastError: Nullable(Type.String()),
  madeAt: Instant,
  at: Nullable(Instant),
});

export const EventDetail = Type.Object({
  ...EventItem.properties,
  intervals: Type.Array(EventInterval),
  dispatches: Type.Array(DispatchView),
  report: Nullable(EventReport),
});

export const getEvent = endpoint({
  method: 'GET',
  path: '/api/v1/oadr/event/:id',
  access: 'energyhub.view',
  summary: 'An event with its intervals and, for each of the caller’s devices, what was sent and what the device did',
  params: IdParams,
  data: EventDetail,
  tolerate: [ErrorCode.notFound],
});

export const cancelEvent = endpoint({
  method: 'POST',
  path: '/api/v1/oadr/event/:id/cancel',
  access: 'energyhub.event.cancel',
  writes: true,
  summary: 'Opt the caller’s enrolments out of an event: nothing more is sent and the devices get their settings back',
  params: IdParams,
  data: EventDetail,
  tolerate: [ErrorCode.notFound, ErrorCode.stateBlocksAction],
});

/** The VTN's webhook: the echo challenge (as a query on the callback URL, or at `{callback}/echo`) and notifications. */
export const callbackEcho = endpoint({
  method: 'GET',
  path: '/api/v1/oadr/callback',
  access: 'public',
  file: true,
  summary: 'The VTN checks the webhook: answers the echo parameter as the body (text)',
  query: Type.Object({ echo: Type.Optional(Type.String({ maxLength: 512 })) }),
  data: Type.String(),
  errors: { 404: 'No VTN is configured: code 404' },
});

export const callbackEchoPath = endpoint({
  method: 'GET',
  path: '/api/v1/oadr/callback/echo',
  access: 'public',
  file: true,
  summary: 'The echo challenge at `{callbackUrl}/echo` (as some VTNs send it)',
  query: Type.Object({ echo: Type.Optional(Type.String({ maxLength: 512 })) }),
  data: Type.String(),
  errors: { 404: 'No VTN is configured: code 404' },
});

export const callbackNotify = endpoint({
  method: 'POST',
  path: '/api/v1/oadr/callback',
  access: 'public',
  file: true,
  summary:
    'A notification from the VTN (an object, or a JSON-encoded string of one, camelCase or snake_case): with the subscription’s bearer token stored, as a hint to read the object again; without it refused',
  data: Type.Null(),
  errors: {
    401: 'Without the bearer token the VEN gave in its subscription: code 401, nothing stored',
    404: 'No VTN is configured: code 404',
    429: 'More than 60 calls a minute from one address: code 3, with Retry-After',
  },
});
