/** Types of the parts Mailroom uses of packages that ship none. */

declare module "mjml" {
  const mjml2html: (
    source: string,
    options: Record<string, unknown>,
  ) => Promise<{ html: string; errors: Array<{ line: number; message: string; tagName: string }> }>;
  export default mjml2html;
}

declare module "libmime" {
  const libmime: {
    /** Decodes RFC 2047 encoded-words in a header value. */
    decodeWords(value: string): string;
  };
  export default libmime;
}
