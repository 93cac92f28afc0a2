/**
 * Downloads made from what the page holds. The raw-message routes need the Bearer key, which a plain link cannot
 * send, so the page fetches the bytes and hands the browser a blob URL. Invariant: a blob URL is revoked once the
 * download has started.
 */
import { useState } from "preact/hooks";
import { api } from "./api.ts";
import { describe } from "./hooks.ts";
import { Alert } from "./alert.tsx";
import { Guarded } from "./guarded.tsx";

export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** "Download raw (.eml)" for a message at `path` (an API route answering message/rfc822). */
export function RawDownload({
  path,
  filename,
  reason = null,
}: {
  path: string;
  filename: string;
  /** Why this reader may not (a viewer reads no content); shown on hover and focus of the disabled button. */
  reason?: string | null;
}) {
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setError(null);
    try {
      saveBlob(await api.blob(path), filename);
    } catch (e) {
      setError(describe(e));
    }
  };
  return (
    <>
      <Guarded why={reason} onClick={download}>
        Download raw (.eml)
      </Guarded>
      <Alert message={error} />
    </>
  );
}
