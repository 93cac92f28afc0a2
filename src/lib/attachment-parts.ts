/**
 * How a parsed attachment (mailparser's) is described to users — received mail and sent mail alike: its name, type
 * (application/octet-stream when the part says none), inline or attachment, its Content-ID without angle brackets,
 * and its size.
 */
import type { Attachment } from "mailparser";

export interface AttachmentDescription {
  filename: string | null;
  content_type: string;
  content_disposition: "inline" | "attachment";
  content_id: string | null;
  size: number;
}

export function describeAttachment(attachment: Attachment): AttachmentDescription {
  return {
    filename: attachment.filename || null,
    content_type: attachment.contentType || "application/octet-stream",
    content_disposition: attachment.contentDisposition === "inline" ? "inline" : "attachment",
    content_id: attachment.contentId ? attachment.contentId.replace(/^<|>$/g, "") : null,
    size: attachment.size,
  };
}
