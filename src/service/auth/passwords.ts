/**
 * Password hashing with scrypt (Node's own, OpenSSL's implementation). Stored in PHC string form,
 * `$scrypt$ln=15,r=8,p=3$<salt>$<hash>`, so the cost can be raised later and old hashes still verify.
 * The cost is one of OWASP's equivalent scrypt settings (N=2^15, r=8, p=3: 32 MiB, ~0.1–0.3 s).
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const COST = { ln: 15, r: 8, p: 3 };
const KEY_BYTES = 32;
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;

function scrypt(password: string, salt: Buffer, cost: { ln: number; r: number; p: number }): Promise<Buffer> {
  const N = 2 ** cost.ln;
  const options: ScryptOptions = { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r + 1024 * 1024 };
  return new Promise((resolve, reject) => scryptCb(password.normalize('NFKC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, COST);
  return `$scrypt$ln=${COST.ln},r=${COST.r},p=${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** A hash of nothing in particular: sign-in with an unknown address still spends the time of one verification. */
const DUMMY = `$scrypt$ln=${COST.ln},r=${COST.r},p=${COST.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_BYTES).toString('base64url')}`;

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? DUMMY).split('$');
  const params = /^ln=(\d+),r=(\d+),p=(\d+)$/.exec(parts[2] ?? '');
  if (parts[1] !== 'scrypt' || !params || parts.length !== 5) return false;
  const cost = { ln: Number(params[1]), r: Number(params[2]), p: Number(params[3]) };
  const want = Buffer.from(parts[4]!, 'base64url');
  const have = await scrypt(password, Buffer.from(parts[3]!, 'base64url'), cost);
  return stored !== null && have.length === want.length && timingSafeEqual(have, want);
}

/** Why a new password is refused, or undefined (length only: NIST SP 800-63B advises against composition rules). */
export function passwordProblem(password: unknown, email?: string): string | undefined {
  if (typeof password !== 'string') return 'a password is required';
  if ([...password].length < MIN_PASSWORD_LENGTH) return `use at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `use at most ${MAX_PASSWORD_LENGTH} characters`;
  if (email && password.trim().toLowerCase() === email.toLowerCase()) return 'the password must not be the e-mail address';
  return undefined;
}
