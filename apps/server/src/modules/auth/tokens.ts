/** Access tokens: short-lived HS256 JWTs carrying only the user id and the session id. */
import { errors, jwtVerify, SignJWT } from 'jose';

export interface AccessClaims {
  userId: number;
  sessionId: string;
}

const ISSUER = 'sunfleet';
/** Tokens whose signature was checked, kept so a client's every call does not check it again. */
const VERIFIED_KEPT = 10_000;

export class AccessTokens {
  private readonly key: Uint8Array;
  /** token → its claims and expiry (epoch seconds); least recently used first. */
  private readonly verified = new Map<string, { claims: AccessClaims; exp: number }>();
  constructor(
    secret: string,
    private readonly ttlSec: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  get ttl() {
    return this.ttlSec;
  }

  sign(claims: AccessClaims): Promise<string> {
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSec}s`)
      .sign(this.key);
  }

  /**
   * The claims, or null for a missing, tampered, expired or malformed token. A token once found
   * good is remembered until it expires: the same text has the same signature, so checking it
   * again (an HMAC through WebCrypto, a tenth of a cheap call's CPU) would only repeat the answer.
   * Whether its session is still live is the caller's question, asked on every request.
   */
  async verify(token: string): Promise<AccessClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      this.verified.delete(token);
      if (known.exp > Math.floor(Date.now() / 1000)) {
        this.verified.set(token, known);
        return known.claims;
      }
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, algorithms: ['HS256'] });
      const userId = Number(payload.sub);
      if (!Number.isInteger(userId) || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') return null;
      const claims = { userId, sessionId: payload.sid };
      this.verified.set(token, { claims, exp: payload.exp });
      if (this.verified.size > VERIFIED_KEPT) this.verified.delete(this.verified.keys().next().value as string);
      return claims;
    } catch (e) {
      if (e instanceof errors.JOSEError) return null;
      throw e;
    }
  }
}
