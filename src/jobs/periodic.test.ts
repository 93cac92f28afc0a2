/** Periodic jobs: two instances' schedulers on one store take each turn once between them. */
import { storeEngines } from "../../test/helpers/postgres.ts";
import { describe, expect, test } from "bun:test";
import { ManualClock } from "../lib/clock.ts";
import { silentLogger } from "../lib/logger.ts";
import { createPeriodicJobs } from "./periodic.ts";

const engines = storeEngines("p", 4);

describe.each(engines)("periodic jobs on %s", (_name, open) => {
  test("each turn runs once across two instances, and the next is due an interval later", async () => {
    const store = await open();
    const clock = new ManualClock(1_000_000);
    let runs = 0;
    const instances = [0, 1].map(() =>
      createPeriodicJobs({ db: store.db, writer: store, clock, logger: silentLogger }),
    );
    for (const jobs of instances) jobs.every("recheck", 60_000, async () => void runs++);
    const turn = () => Promise.all(instances.map((jobs) => jobs.runIfDue("recheck")));

    expect((await turn()).filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
    clock.advance(59_999);
    expect((await turn()).filter(Boolean)).toHaveLength(0);
    clock.advance(1);
    expect((await turn()).filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(2);
  });
});
