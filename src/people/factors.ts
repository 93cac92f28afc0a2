/**
 * Second factors of a signed-in person (docs/teams.md#two-step-sign-in): turning TOTP on with a code of the new
 * secret, off, and replacing the recovery codes — each behind the current password again.
 *
 * Invariants: the secret is sealed with the master key; recovery codes are shown once and stored as SHA-256; a
 * pending secret becomes the factor only once a code of it is given.
 */
import { eq } from "drizzle-orm";
import { first, tablesOf, type Db } from "../db/store.ts";
import { AppError, validationError } from "../errors.ts";
import type { PeopleContext, UserRow } from "./accounts.ts";
import type { People } from "./model.ts";
import { newRecoveryCodes, newTotpSecret, otpauthUrl, totpStep } from "./totp.ts";

type FactorsPart = Pick<People, "enrolTotp" | "confirmTotp" | "disableTotp" | "replaceRecoveryCodes">;

export function createFactors(ctx: PeopleContext): FactorsPart {
  const { db, writer, clock, secrets } = ctx.deps;
  const { users, recoveryCodes } = tablesOf(db);

  /** Replaces the user's recovery codes with ten new ones, inside `tx`; answers them for the person to keep. */
  const storeRecoveryCodes = async (tx: Db, userId: string) => {
    const { codes, hashes } = newRecoveryCodes();
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
    return codes;
  };

  return {
    async enrolTotp(actor, password) {
      const user = await ctx.confirmedSelf(actor, password);
      if (user.totpSecret)
        throw new AppError("conflict", "TOTP is on already: turn it off first to enrol another device.");
      const secret = newTotpSecret();
      await writer.write(async (tx) => {
        await tx
          .update(users)
          .set({ totpPendingSecret: secrets.seal(secret) })
          .where(eq(users.id, user.id));
      });
      return { object: "totp_enrolment", secret, otpauth_url: otpauthUrl(secret, user.email, ctx.deps.totpIssuer) };
    },

    async confirmTotp(actor, code, client) {
      if (!actor.user) throw new AppError("insufficient_scope", "Only a signed-in person turns TOTP on.");
      const userId = actor.user.id;
      return writer.write(async (tx) => {
        const user = (await first(tx.select().from(users).where(eq(users.id, userId)))) as UserRow;
        if (user.totpSecret) throw new AppError("conflict", "TOTP is on already.");
        if (!user.totpPendingSecret) throw new AppError("conflict", "Nothing to confirm: begin with POST /v1/me/totp.");
        const now = clock.now();
        const step = totpStep(secrets.open(user.totpPendingSecret), typeof code === "string" ? code : "", now);
        if (step === null)
          throw validationError([{ path: "code", message: "is not the current code of the new secret" }]);
        await tx
          .update(users)
          .set({ totpSecret: user.totpPendingSecret, totpPendingSecret: null, totpLastStep: step })
          .where(eq(users.id, userId));
        const recovery_codes = await storeRecoveryCodes(tx, userId);
        await ctx.ownChange(tx, user, client, "user.totp_enabled");
        return { object: "totp" as const, enabled: true as const, recovery_codes };
      });
    },

    async disableTotp(actor, password, client) {
      const user = await ctx.confirmedSelf(actor, password);
      await writer.write(async (tx) => {
        await tx
          .update(users)
          .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null })
          .where(eq(users.id, user.id));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
        if (user.totpSecret) await ctx.ownChange(tx, user, client, "user.totp_disabled");
      });
      return { object: "totp", enabled: false };
    },

    async replaceRecoveryCodes(actor, password, client) {
      const user = await ctx.confirmedSelf(actor, password);
      if (!user.totpSecret) throw new AppError("conflict", "TOTP is off: recovery codes come with turning it on.");
      return writer.write(async (tx) => {
        const recovery_codes = await storeRecoveryCodes(tx, user.id);
        await ctx.ownChange(tx, user, client, "user.recovery_codes_replaced");
        return { object: "totp" as const, enabled: true as const, recovery_codes };
      });
    },
  };
}
