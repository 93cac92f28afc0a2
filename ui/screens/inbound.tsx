/** Inbound: received mail, its detail and attachments. */
export function InboundScreen({ id }: { id?: string }) {
  return (
    <section aria-labelledby="inbound-title">
      <h1 id="inbound-title">Inbound</h1>
      {id && <p>{id}</p>}
    </section>
  );
}
