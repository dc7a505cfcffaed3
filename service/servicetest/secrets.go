package servicetest

import (
	"sync"

	"github.com/checkoutd/checkoutd/service/secrets"
)

// SecretKey seals the secrets of the tests' databases (CHECKOUT_SECRET_KEY for the processes
// the tests start). A fixed key: the ring is one per process, and every test of a process shares it.
const SecretKey = "Y2hlY2tvdXRkIHRlc3Qga2V5LCBuZXZlciB1c2VkISE="

var secretKeyOnce sync.Once

// UseSecretKey installs the ring of SecretKey, unless the test binary installed its own first
// (the tests of key rotation do). SQLite and Postgres call it; a test that opens a database
// itself calls it before it builds a service.
func UseSecretKey() {
	secretKeyOnce.Do(func() {
		if secrets.Installed() != nil {
			return
		}
		ring, err := secrets.NewRing(SecretKey, "")
		if err != nil {
			panic(err)
		}
		secrets.Install(ring)
	})
}
