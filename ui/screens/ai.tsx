/** AI: score a subject line, draft an email with the writer. */
export function AiScreen() {
  return (
    <section aria-labelledby="ai-title">
      <h1 id="ai-title">AI</h1>
    </section>
  );
}
