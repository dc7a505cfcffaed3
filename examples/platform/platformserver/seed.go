package platformserver

import "fmt"

var (
	seedFirst = []string{"Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Margaret", "Niklaus"}
	seedLast  = []string{"Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Thompson", "Hamilton", "Wirth"}
)

// SeedCustomers adds n customers to shop, each with one default shipping address. The k-th
// customer ever seeded in the shop (from 1) has email customer{k}@example.com, phone
// +1555{k:07d} and a name picked by k, so that tests can predict them; a second call continues
// the numbering.
func (s *Server) SeedCustomers(shop string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := s.shop(shop)
	now := s.now().UTC()
	for range n {
		sh.seq["seed"]++
		k := sh.seq["seed"]
		first, last := seedFirst[k%len(seedFirst)], seedLast[(k/len(seedFirst))%len(seedLast)]
		id := sh.newID("cus")
		phone := fmt.Sprintf("+1555%07d", k)
		c := &Customer{
			PlatformID: id, PlatformCreatedAt: now, PlatformUpdatedAt: now,
			FirstName: first, LastName: last, Phone: phone,
			Email: fmt.Sprintf("customer%d@example.com", k),
			Addresses: []Address{{
				PlatformID: sh.newID("adr"), PlatformCustomerID: id,
				AddressType: "shipping", AddressUse: "shipping", IsDefault: true,
				FirstName: first, LastName: last, Phone: phone,
				Street1: fmt.Sprintf("%d Main Street", k), City: "Springfield",
				Province: "Illinois", ProvinceCode: "IL", Country: "United States", CountryCode: "US",
				PostalCode: "62701",
			}},
		}
		sh.customers.put(id, c)
	}
}
