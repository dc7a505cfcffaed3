package platform_test

import (
	"testing"

	"github.com/checkoutd/checkoutd/service/platform"
)

// pool_max_conns in a PostgreSQL URL bounds the connections one process opens (what sizing
// several processes against max_connections needs); without it a process opens at most 20.
// Opening connects nothing, so no server is needed.
func TestPoolMaxConnsInThePostgreSQLURLBoundsTheProcessesConnections(t *testing.T) {
	for url, want := range map[string]int{
		"postgres://checkoutd@127.0.0.1:1/shop?sslmode=disable":                    platform.DefaultPoolMaxConns,
		"postgres://checkoutd@127.0.0.1:1/shop?pool_max_conns=7&sslmode=disable":   7,
		"postgresql://checkoutd@127.0.0.1:1/shop?sslmode=disable&pool_max_conns=3": 3,
	} {
		db, err := platform.OpenDatabase(url)
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		if got := db.SQL.Stats().MaxOpenConnections; got != want {
			t.Errorf("%s: at most %d connections, want %d", url, got, want)
		}
		db.Close()
	}
	for _, url := range []string{"postgres://h/db?pool_max_conns=0", "postgres://h/db?pool_max_conns=many", "postgres://h/db?pool_max_conns="} {
		if db, err := platform.OpenDatabase(url); err == nil {
			db.Close()
			t.Errorf("%s was accepted", url)
		}
	}
}
