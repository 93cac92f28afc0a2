/**
 * A message's attachments as a list of downloads, for sent and received mail alike: each by the signed link the API
 * gives (`download_url`, no key needed), with its type and size.
 */
import { size } from "./format.ts";

export interface AttachmentDownload {
  id: string;
  filename: string | null;
  content_type: string;
  size: number;
  download_url: string;
}

export function Attachments({ files }: { files: AttachmentDownload[] }) {
  return (
    <div class="scroll">
      <table class="list stack" aria-label="Attachments">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Type</th>
            <th scope="col">Size</th>
          </tr>
        </thead>
        <tbody>
          {files.map((file) => (
            <tr key={file.id}>
              <td data-label="File">
                <a
                  href={file.download_url}
                  download={file.filename ?? ""}
                  aria-label={`Download ${file.filename ?? "unnamed attachment"}`}
                >
                  {file.filename ?? "(unnamed)"}
                </a>
              </td>
              <td data-label="Type">{file.content_type}</td>
              <td data-label="Size">{size(file.size)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
