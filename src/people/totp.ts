/**
 * Second factor codes (docs/teams.md): RFC 6238 time-based codes — 30-second steps, six digits, HMAC-SHA-1, which is
 * what every authenticator app reads from an otpauth URL — and recovery codes for a lost device. The arithmetic is
 * the `otpauth` library's (its comparison is constant-time); what is Mailroom's is how codes are spent.
 * Invariants: a time-based code is accepted once — its step must come after the last step accepted, moved forward in
 * the same conditional write, so two requests racing with one code cannot both pass; a recovery code is stored as its
 * SHA-256 and deleted by the write that accepts it.
 */
import { randomBytes } from "node:crypto";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { tablesOf, type Db } from "../db/store.ts";
import { digest } from "./tokens.ts";

export const RECOVERY_CODE_COUNT = 10;
const PERIOD_SECONDS = 30;
/** A code of the step before or after the current one passes too: phones' clocks drift, and people type slowly. */
const WINDOW_STEPS = 1;
/** Recovery codes use letters and digits that cannot be mistaken for one another when copied by hand. */
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

export const newTotpSecret = () => new Secret({ size: 20 }).base32;

const totpOf = (secret: string, email = "", issuer = "Mailroom") =>
  new TOTP({
    issuer,
    label: email,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

/** The otpauth:// URL an authenticator app reads (as a QR code or pasted). */
export const otpauthUrl = (secret: string, email: string, issuer: string) => totpOf(secret, email, issuer).toString();

/** The time step `code` belongs to, or null when it is not a current code of `secret`. */
export function totpStep(secret: string, code: string, now: number): number | null {
  const token = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secret).validate({ token, timestamp: now, window: WINDOW_STEPS });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}

/** A recovery code as typed: case, spaces and dashes do not matter. */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");

/** Ten new recovery codes, `xxxxx-xxxxx` (about 50 bits each), and the digests that are stored. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  return { codes, hashes: codes.map((code) => digest(normalizeRecoveryCode(code))) };
}

/**
 * Spends `code` for the user whose sealed-then-opened TOTP secret is `secret`: a current time-based code not used
 * before, or one of their recovery codes. Runs inside the sign-in's write; answers whether the code passed.
 */
export async function spendSecondFactor(
  tx: Db,
  input: { userId: string; secret: string; code: string; now: number },
): Promise<boolean> {
  const { users, recoveryCodes } = tablesOf(tx);
  if (input.code.length > 64) return false;
  const step = totpStep(input.secret, input.code, input.now);
  if (step !== null) {
    const moved = await tx
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, input.userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    return moved.length === 1;
  }
  const spent = await tx
    .delete(recoveryCodes)
    .where(
      and(
        eq(recoveryCodes.userId, input.userId),
        eq(recoveryCodes.codeHash, digest(normalizeRecoveryCode(input.code))),
      ),
    )
    .returning({ userId: recoveryCodes.userId });
  return spent.length === 1;
}
