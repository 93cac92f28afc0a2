/** Overview: volume, delivery, bounce and complaint rates over time. */
export function OverviewScreen() {
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
    </section>
  );
}
