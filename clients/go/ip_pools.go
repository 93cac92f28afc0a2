// Sending IPs (docs/deliverability.md, scope domains:read): the server's IP pools for direct delivery, each an
// [ip_pools.<name>] that a domain names with UpdateDomainRequest.IpPool, with its addresses' warm-up, today's
// traffic per destination provider, and the providers whose rate is halved after throttling.
package mailroom

import (
	"context"
	"net/http"
)

// IpPoolList answers IpPools.List: the pools open to the organisation, by name, 100 to a page (HasMore: more
// follow).
type IpPoolList struct {
	Object  string   `json:"object"`
	HasMore bool     `json:"has_more"`
	Data    []IpPool `json:"data"`
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
