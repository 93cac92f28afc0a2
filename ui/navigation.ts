/**
 * The navigation's one table: groups, each a list of AREAS ids (ui/api.ts), drawn by ui/sidebar.tsx as a sidebar at desktop
 * widths and as a menu a button opens on phones (docs/architecture.md#admin-ui). Invariant: an entry shows only when its screen
 * exists in AREAS and the caller holds its scope, and a group with no such entry is not drawn — so a new screen is one
 * line in AREAS (its id is already placed here), and a caller never sees a link to a screen that would refuse them.
 */
import { AREAS } from "./api.ts";

/**
 * The groups in order. Ids not (yet) in AREAS are skipped, so screens being built elsewhere already have their place:
 * adding `{ id: "contacts", … }` to AREAS puts Contacts under Audience.
 */
export const NAVIGATION: ReadonlyArray<{ group: string | null; areas: readonly string[] }> = [
  { group: null, areas: ["overview"] },
  { group: "Sending", areas: ["emails", "broadcasts", "templates", "ai"] },
  { group: "Audience", areas: ["contacts", "segments", "topics", "properties", "imports"] },
  { group: "Receiving", areas: ["inbound", "routes"] },
  { group: "Operations", areas: ["queue", "deliverability", "suppressions", "logs"] },
  { group: "Settings", areas: ["domains", "keys", "webhooks", "members", "organization", "audit"] },
];

type Area = (typeof AREAS)[number];

/** The groups as the caller sees them: only screens that exist and that `may` open, and only groups with one. */
export function visibleNavigation(may: (scope: string) => boolean) {
  return NAVIGATION.map(({ group, areas }) => ({
    group,
    areas: areas.map((id) => AREAS.find((a) => a.id === id)).filter((a): a is Area => a !== undefined && may(a.scope)),
  })).filter((g) => g.areas.length > 0);
}

export type NavigationGroups = ReturnType<typeof visibleNavigation>;
