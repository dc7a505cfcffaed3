package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

// SQLite has no time type: times are text, and must compare as times do.
func TestTimesCompareAsTimesOnEveryDatabase(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *service.Database) {
		ctx := context.Background()
		svc := service.New(db)
		created, err := svc.CreateShop(ctx, service.CreateShopInput{Identifier: "times"})
		if err != nil {
			t.Fatal(err)
		}
		base := time.Date(2026, 11, 23, 18, 52, 28, 740_000_000, time.FixedZone("EST", -5*3600))
		// c is an hour before base, written in another zone: as text it would sort after base.
		for i, at := range []time.Time{base, base.Add(time.Millisecond), base.Add(-time.Hour).UTC()} {
			if err := db.Client.Order.Create().SetShopID(created.Shop.ID).SetPublicOrderID(string(rune('a' + i))).SetCurrency("USD").
				SetMetaData(schema.OrderMetaData{}).SetCreatedAt(at).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		after, err := db.Client.Order.Query().Where(order.CreatedAtGT(base)).Order(order.ByCreatedAt()).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(after) != 1 || after[0].PublicOrderID != "b" {
			t.Fatalf("created after %v: %d orders", base, len(after))
		}
	})
}
