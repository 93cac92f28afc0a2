/**
 * One process's RSA-2048 signing rate with Bun's own crypto (`crypto.sign` with a KeyObject, SHA-256, a DKIM
 * header's size of data): bench.ts runs one per core, and their sum is the ceiling of DKIM-signed delivery here.
 * Prints signatures per second.
 */
import { generateKeyPairSync, sign } from "node:crypto";

const SECONDS = Number(process.argv[2] ?? 3);
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const header = Buffer.alloc(600, "h");
let signatures = 0;
const started = performance.now();
while (performance.now() - started < SECONDS * 1000) {
  sign("sha256", header, privateKey);
  signatures++;
}
console.log(Math.round(signatures / ((performance.now() - started) / 1000)));
