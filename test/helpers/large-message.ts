/**
 * A MIME message of about a given size, most of it one base64 attachment of random bytes: what the tests of large
 * messages (the MX's limits, the slow inputs) send. `header` lines come first, then the MIME structure.
 */
import { randomBytes } from "node:crypto";

export function largeMessage(bytes: number, header: string[]): Buffer {
  // Base64 of n bytes is 4n/3 characters, plus a CRLF every 76: about 1.03 × 4n/3 in all.
  const attachment = randomBytes(Math.floor((bytes * 3) / 4 / 1.03))
    .toString("base64")
    .replace(/.{76}/g, "$&\r\n");
  return Buffer.from(
    [
      ...header,
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      "--b",
      "Content-Type: text/plain",
      "",
      "Here they are.",
      "--b",
      "Content-Type: image/jpeg",
      "Content-Transfer-Encoding: base64",
      'Content-Disposition: attachment; filename="pictures.jpg"',
      "",
      attachment,
      "--b--",
      "",
    ].join("\r\n"),
  );
}
