package service_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"entgo.io/ent/dialect/sql/schema"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

func TestCommittedMigrationsMatchTheEntSchema(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *service.Database) {
		var buf bytes.Buffer
		if err := db.Client.Schema.WriteTo(context.Background(), &buf, schema.WithDropColumn(true), schema.WithDropIndex(true)); err != nil {
			t.Fatal(err)
		}
		var pending []string
		for _, line := range strings.Split(buf.String(), "\n") {
			l := strings.TrimSpace(line)
			if l == "" || l == "BEGIN;" || l == "COMMIT;" || strings.HasPrefix(l, "--") {
				continue
			}
			pending = append(pending, l)
		}
		if len(pending) > 0 {
			t.Fatalf("the ent schema differs from the committed migrations; run make generate. Pending:\n%s", strings.Join(pending, "\n"))
		}
	})
}
