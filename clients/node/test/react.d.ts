/** The one React function the tests use, declared here so that type-checking needs no @types/react. */
declare module "react" {
  export function createElement(
    type: string,
    props: Record<string, unknown> | null,
    ...children: unknown[]
  ): { type: unknown; props: unknown };
}
