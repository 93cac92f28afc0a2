/** Templates: list, editor with live preview, validation errors at their line, variables, publish. */
export function TemplatesScreen({ id }: { id?: string }) {
  return (
    <section aria-labelledby="templates-title">
      <h1 id="templates-title">Templates</h1>
      {id && <p>{id}</p>}
    </section>
  );
}
