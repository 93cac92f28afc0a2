/**
 * How the people module makes and stores its secrets: sessions, one-time links, invitations, recovery codes and
 * single sign-on states are 256-bit random tokens (recovery codes shorter, typed by hand) stored only as their
 * SHA-256, so a copy of the store signs nobody in.
 */
import { createHash, randomBytes } from "node:crypto";

/** How a token is stored and looked up: its SHA-256, hex. */
export const digest = (token: string) => createHash("sha256").update(token).digest("hex");
/** A new token for a session, a one-time link, an invitation or a sign-on state: 256 random bits. */
export const newToken = () => randomBytes(32).toString("base64url");
