// Shapes shared by every resource: the list page and its options, the answers of deletes and of calls that only
// name the object they changed, and small helpers for optional fields.
package mailroom

import (
	"encoding/json"
	"net/url"
	"strconv"
)

// List is a page of a list: {object: "list", has_more, data}. Ask for the next page with After set to the id
// of the last item of Data.
type List[T any] struct {
	Object  string `json:"object"`
	HasMore bool   `json:"has_more"`
	Data    []T    `json:"data"`
}

// ListOptions pages through a list: Limit 1–100 (0: the server's default, 20), and After or Before an id of a
// previous page.
type ListOptions struct {
	Limit  int
	After  string
	Before string
}

func (o *ListOptions) values() url.Values {
	query := url.Values{}
	if o != nil {
		setPage(query, o.Limit, o.After, o.Before)
	}
	return query
}

func setPage(query url.Values, limit int, after, before string) {
	if limit > 0 {
		query.Set("limit", strconv.Itoa(limit))
	}
	setIf(query, "after", after)
	setIf(query, "before", before)
}

func setIf(query url.Values, name, value string) {
	if value != "" {
		query.Set(name, value)
	}
}

// DeletedObject answers every delete: {object, id, deleted: true}.
type DeletedObject struct {
	Object  string `json:"object"`
	Id      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

// ObjectRef answers calls that only name what they created or changed: {object, id}.
type ObjectRef struct {
	Object string `json:"object"`
	Id     string `json:"id"`
}

// Bool returns a pointer to v, for optional boolean fields such as Tracking.Opens.
func Bool(v bool) *bool {
	return &v
}

// String returns a pointer to v, for a *string field (BlocklistListing.Reason).
func String(v string) *string {
	return &v
}

// Nullable is a field of an update that may also be sent as JSON null, which returns a setting to its default
// (UpdateOrganizationRequest.DailyQuota, say). A nil *Nullable is left out of the request, and the setting stays.
type Nullable[T any] struct {
	value T
	set   bool
}

// Value returns a Nullable sent as v.
func Value[T any](v T) *Nullable[T] {
	return &Nullable[T]{value: v, set: true}
}

// Null returns a Nullable sent as JSON null.
func Null[T any]() *Nullable[T] {
	return &Nullable[T]{}
}

// MarshalJSON writes the value, or null.
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if !n.set {
		return []byte("null"), nil
	}
	return json.Marshal(n.value)
}
