// Sending IPs (DESIGN §14, scope domains:read): the server's IP pools for direct delivery, each an
// [ip_pools.<name>] that a domain names with UpdateDomainRequest.IpPool, with its addresses' warm-up, today's
// traffic per destination provider, and the providers whose rate is halved after throttling.
package mailroom

import (
	"context"
	"net/http"
)

// IpPoolBackOff is a destination provider whose rate is halved for one address after it pushed back (a 421 or a
// 4.7.x rate reply): MessagesPerMinute is the rate in force now, Until when the configured rate returns (ISO 8601).
type IpPoolBackOff struct {
	Provider          string `json:"provider"`
	MessagesPerMinute int    `json:"messages_per_minute"`
	Until             string `json:"until"`
}

// IpPoolAddress is one source address of a pool. EhloName is the name it greets with (its PTR name; empty: [mx]
// ehlo_name). WarmupDay is its day of warm-up (1: the day it first sent; nil before it sent, or once warm-up is
// over); DailyCap today's cap per destination provider while it warms up (nil: uncapped). Today counts the
// messages delivered today (UTC) per destination provider ("gmail", "outlook", "yahoo", "other", …).
type IpPoolAddress struct {
	Address   string          `json:"address"`
	EhloName  string          `json:"ehlo_name"`
	WarmupDay *int            `json:"warmup_day"`
	DailyCap  *int            `json:"daily_cap"`
	Today     map[string]int  `json:"today"`
	BackedOff []IpPoolBackOff `json:"backed_off"`
}

// IpPool is an [ip_pools.<name>] of the server: the addresses direct delivery of the domains naming it binds,
// round-robin, and how long each warms up from its first use (Warmup, e.g. "30d"; "0d": no warm-up).
type IpPool struct {
	Name      string          `json:"name"`
	Warmup    string          `json:"warmup"`
	Addresses []IpPoolAddress `json:"addresses"`
}

// IpPoolList answers IpPools.List: every configured pool in one answer, without pages.
type IpPoolList struct {
	Object string   `json:"object"`
	Data   []IpPool `json:"data"`
}

// IpPoolsService reads the server's IP pools.
type IpPoolsService struct {
	client *Client
}

// List answers every IP pool the server configures (none: an empty Data), with each address's warm-up and today's
// traffic.
func (s *IpPoolsService) List() (*IpPoolList, error) {
	return s.ListWithContext(context.Background())
}

// ListWithContext answers every IP pool the server configures (none: an empty Data), with each address's warm-up
// and today's traffic.
func (s *IpPoolsService) ListWithContext(ctx context.Context) (*IpPoolList, error) {
	return fetch[IpPoolList](ctx, s.client, call{method: http.MethodGet, path: "ip-pools"})
}
