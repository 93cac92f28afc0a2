/**
 * The navigation's one table (ui/navigation.ts): every screen in AREAS has exactly one place in it, so a screen is
 * never unreachable nor listed twice, and what a caller sees is only what exists and what they may open
 * (docs/architecture.md#admin-ui).
 */
import { describe, expect, test } from "bun:test";
import { AREAS } from "../ui/api.ts";
import { NAVIGATION, visibleNavigation } from "../ui/navigation.ts";

describe("the navigation table", () => {
  test("every screen in AREAS is in exactly one group", () => {
    const placed = NAVIGATION.flatMap((g) => g.areas);
    for (const area of AREAS) expect(placed.filter((id) => id === area.id)).toEqual([area.id]);
  });

  test("a group shows only screens that exist: ids placed ahead of their screen draw no link", () => {
    const existing = new Set<string>(AREAS.map((a) => a.id));
    const shown = visibleNavigation(() => true).flatMap((g) => g.areas.map((a) => a.id));
    expect(shown.every((id) => existing.has(id))).toBe(true);
    expect(shown.length).toBe(AREAS.length);
    // Overview first, then the groups in the table's order.
    expect(visibleNavigation(() => true)[0]!.areas.map((a) => a.id)).toEqual(["overview"]);
  });

  test("a caller sees only the screens whose scope they hold", () => {
    const reader = visibleNavigation((scope) => scope === "emails:read" || scope === "domains:read");
    expect(reader.map((g) => [g.group, g.areas.map((a) => a.label)])).toEqual([
      [null, ["Overview"]],
      ["Sending", ["Emails"]],
      ["Operations", ["Deliverability"]],
      ["Settings", ["Domains"]],
    ]);
    expect(visibleNavigation(() => false)).toEqual([]);
  });
});
