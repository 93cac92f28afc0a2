/** Rows of the audience's tables as the API shows them (docs/contacts.md), and the data their events carry. */
import type { PropertyRow, TopicRow } from "./audience-repo.ts";
import type { ContactPropertyView, ContactView, SegmentView, TopicView } from "./model.ts";
import type { ContactRow, SegmentRow } from "./repo.ts";

export function contactView(row: ContactRow, properties?: ReadonlyMap<string, PropertyRow>): ContactView {
  const view: ContactView = {
    object: "contact",
    id: row.id,
    email: row.email,
    first_name: row.firstName ?? null,
    last_name: row.lastName ?? null,
    unsubscribed: row.unsubscribed,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
  if (properties) {
    // Every defined property the contact has a value for, or whose fallback stands in for one (Resend's get).
    const shown: NonNullable<ContactView["properties"]> = {};
    for (const [key, property] of properties) {
      const value = row.properties[key] ?? property.fallbackValue;
      if (value !== null && value !== undefined) shown[key] = { type: property.type, value };
    }
    view.properties = shown;
  }
  return view;
}

/** A contact's event data (Resend's `contact.*` webhooks). */
export function contactEventData(row: ContactRow, segmentIds: string[]) {
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName ?? null,
    last_name: row.lastName ?? null,
    unsubscribed: row.unsubscribed,
    segment_ids: segmentIds,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export const segmentView = (row: SegmentRow): SegmentView => ({
  object: "segment",
  id: row.id,
  name: row.name,
  created_at: row.createdAt,
});

export const topicView = (row: TopicRow): TopicView => ({
  object: "topic",
  id: row.id,
  name: row.name,
  description: row.description ?? null,
  default_subscription: row.defaultSubscription,
  visibility: row.visibility,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

/** A topic's event data (Resend's `topic.*` webhooks). */
export const topicEventData = (row: TopicRow) => {
  const { object: _, ...data } = topicView(row);
  return data;
};

export const propertyView = (row: PropertyRow): ContactPropertyView => ({
  object: "contact_property",
  id: row.id,
  key: row.key,
  type: row.type,
  fallback_value: row.fallbackValue ?? null,
  created_at: row.createdAt,
});
