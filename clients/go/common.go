// Shapes shared by every resource: the list page and its options, the answers of deletes and of calls that only
// name the object they changed, and small helpers for optional fields.
package mailroom

import (
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

// String returns a pointer to v, for optional string fields such as UpdateWebhookRequest.Description.
func String(v string) *string {
	return &v
}
