/**
 * Bytes as they cross between threads (the CPU pool, the SQLite content thread): a view over the same memory, or
 * the bytes in shared memory, which a thread reads where they are instead of being posted a copy of megabytes.
 * Invariant: neither function copies bytes that are already where they need to be.
 */

/** The bytes as a Buffer over the same memory (what arrives from a thread is a plain Uint8Array). */
export function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The bytes in shared memory: themselves when they are there already, else a copy made once. */
export function inSharedMemory(bytes: Uint8Array): Uint8Array {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes;
  const copy = new Uint8Array(new SharedArrayBuffer(bytes.length));
  copy.set(bytes);
  return copy;
}
