/**
 * The sections as a sidebar (desktop) or the phone's menu: draws ui/navigation.ts's groups, each under its heading,
 * the current screen marked as the page. Invariant: one list of links whatever the width — CSS alone folds it away.
 */
import type { AreaId } from "./api.ts";
import type { NavigationGroups } from "./navigation.ts";

/** The sections, grouped; `current` is marked as the page, `onChoose` closes the phone's menu. */
export function Navigation({
  groups,
  current,
  open,
  onChoose,
}: {
  groups: NavigationGroups;
  current: AreaId | undefined;
  open: boolean;
  onChoose: () => void;
}) {
  return (
    <nav id="sections" aria-label="Sections" class={open ? "sidebar open" : "sidebar"}>
      {groups.map(({ group, areas }) => (
        <div class="nav-group" key={group ?? "top"} role="group" aria-label={group ?? "Start"}>
          {group && (
            <p class="nav-heading" aria-hidden="true">
              {group}
            </p>
          )}
          <ul>
            {areas.map((a) => (
              <li key={a.id}>
                <a href={`#/${a.id}`} aria-current={a.id === current ? "page" : undefined} onClick={onChoose}>
                  {a.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
