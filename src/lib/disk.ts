/**
 * The file system a directory lives on, as an operator's disk alert needs it (docs/operations.md#health-metrics-and-logs):
 * bytes free to an unprivileged process and the size. Null when the directory cannot be read (not created yet).
 */
import { statfsSync } from "node:fs";

export function diskOf(directory: string): { freeBytes: number; sizeBytes: number } | null {
  try {
    const stats = statfsSync(directory);
    return { freeBytes: stats.bavail * stats.bsize, sizeBytes: stats.blocks * stats.bsize };
  } catch {
    return null;
  }
}
