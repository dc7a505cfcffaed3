package filter_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/ent/product"
	"github.com/checkoutd/checkoutd/service/filter"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

// Every operator on every column type, on real rows of both databases: rows written with times
// in several offsets, filtered with times in others.
func TestFiltersSelectTheRowsTheySayOnEveryDatabase(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		shop := db.Client.Shop.Create().SetIdentifier("filters").SetJwtKey([]byte("key")).SaveX(ctx)
		other := db.Client.Shop.Create().SetIdentifier("other").SetJwtKey([]byte("key")).SaveX(ctx)
		type row struct {
			title, vendor string
			giftCard      bool
			created       time.Time
			updated       *time.Time
		}
		march5, feb1 := at("2024-03-05T00:00:00Z"), at("2024-02-01T00:00:00Z")
		rows := []row{
			{"Blue Shirt", "Acme", false, at("2024-03-01T10:00:00+02:00"), nil},      // 03-01 08:00Z
			{"Red Shirt", "acme_co", true, at("2024-03-01T23:30:00-05:00"), &march5}, // 03-02 04:30Z
			{"100% Cotton Tee", "acme-co", false, at("2024-03-02T12:00:00Z"), &feb1}, // 03-02 12:00Z
			{"Gift Card, Digital", "", true, at("2024-03-03T09:00:00.5+09:00"), nil}, // 03-03 00:00:00.5Z
		}
		ids := map[string]int{}
		for i, r := range rows {
			p := db.Client.Product.Create().SetShopID(shop.ID).SetPlatformID(fmt.Sprint(i)).SetTitle(r.title).
				SetVendor(r.vendor).SetGiftCard(r.giftCard).SetCreatedAt(r.created).SetNillablePlatformUpdatedAt(r.updated).SaveX(ctx)
			ids[r.title] = p.ID
		}
		// Another shop's row meets every filter below that its own rows meet: the caller's scope
		// stays the caller's.
		db.Client.Product.Create().SetShopID(other.ID).SetPlatformID("0").SetTitle("Blue Shirt").SetVendor("Acme").
			SetCreatedAt(rows[0].created).SaveX(ctx)
		blue, red, tee, card := "Blue Shirt", "Red Shirt", "100% Cotton Tee", "Gift Card, Digital"

		for _, c := range []struct {
			rule    string
			filters []string
			want    []string
		}{
			{"no filter keeps every row", nil, []string{blue, red, tee, card}},
			{"eq is equal, exactly", []string{"eq(vendor:Acme)"}, []string{blue}},
			{"neq is not equal", []string{"neq(vendor:Acme)"}, []string{red, tee, card}},
			{"gt on a whole number", []string{fmt.Sprintf("gt(id:%d)", ids[red])}, []string{tee, card}},
			{"gte on a whole number", []string{fmt.Sprintf("gte(id:%d)", ids[red])}, []string{red, tee, card}},
			{"lt on a whole number", []string{fmt.Sprintf("lt(id:%d)", ids[red])}, []string{blue}},
			{"lte on a whole number", []string{fmt.Sprintf("lte(id:%d)", ids[red])}, []string{blue, red}},
			{"in a list of whole numbers", []string{fmt.Sprintf("in(id:%d, %d)", ids[blue], ids[card])}, []string{blue, card}},
			{"nin a list of whole numbers", []string{fmt.Sprintf("nin(id:%d,%d)", ids[blue], ids[card])}, []string{red, tee}},
			{"gt on text is in byte order", []string{"gt(vendor:acme)"}, []string{red, tee}},
			{"lte on text", []string{"lte(vendor:Acme)"}, []string{blue, card}},
			{"like with a trailing star is a prefix, in any case", []string{"like(title:red*)"}, []string{red}},
			{"like with a leading star is a suffix", []string{"like(title:*SHIRT)"}, []string{blue, red}},
			{"like with stars around is a substring", []string{"like(title:*t*)"}, []string{blue, red, tee, card}},
			{"like without a star is the whole value", []string{"like(title:red shirt)"}, []string{red}},
			{"like matches _ as itself", []string{"like(vendor:acme_*)"}, []string{red}},
			{"like matches % as itself", []string{"like(title:100%25*)"}, []string{tee}},
			{"nlike is not like", []string{"nlike(title:*shirt)"}, []string{tee, card}},
			{"in a list of texts", []string{"in(vendor:Acme, acme-co)"}, []string{blue, tee}},
			{"nin a list of texts", []string{"nin(vendor:Acme,acme-co)"}, []string{red, card}},
			{"an encoded comma is part of a value", []string{"in(title:Gift Card%2C Digital,Blue Shirt)"}, []string{blue, card}},
			{"an empty value is the empty text", []string{"eq(vendor:)"}, []string{card}},
			{"eq on a bool", []string{"eq(gift_card:true)"}, []string{red, card}},
			{"neq on a bool", []string{"neq(gift_card:true)"}, []string{blue, tee}},
			{"in a list of bools", []string{"in(gift_card:false)"}, []string{blue, tee}},
			{"nin a list of bools", []string{"nin(gift_card:0)"}, []string{red, card}},
			{"eq with a date is that UTC day", []string{"eq(created_at:2024-03-02)"}, []string{red, tee}},
			{"neq with a date is any other day", []string{"neq(created_at:2024-03-02)"}, []string{blue, card}},
			{"gt with a date is after that day", []string{"gt(created_at:2024-03-02)"}, []string{card}},
			{"gte with a date is from that day", []string{"gte(created_at:2024-03-02)"}, []string{red, tee, card}},
			{"lt with a date is before that day", []string{"lt(created_at:2024-03-02)"}, []string{blue}},
			{"lte with a date is up to the end of that day", []string{"lte(created_at:2024-03-02)"}, []string{blue, red, tee}},
			{"in a list of dates is any of those days", []string{"in(created_at:2024-03-01,2024-03-03)"}, []string{blue, card}},
			{"nin a list of dates", []string{"nin(created_at:2024-03-01,2024-03-03)"}, []string{red, tee}},
			{"eq with a time in UTC", []string{"eq(created_at:2024-03-02T04:30:00Z)"}, []string{red}},
			{"eq with a time in another offset than the row's", []string{"eq(created_at:2024-03-01T18:30:00-10:00)"}, []string{red}},
			{"eq with an unencoded + offset", []string{"eq(created_at:2024-03-02T06:30:00 02:00)"}, []string{red}},
			{"eq with fractional seconds", []string{"eq(created_at:2024-03-03T00:00:00.5Z)"}, []string{card}},
			{"gt with a time", []string{"gt(created_at:2024-03-01T23:30:00-05:00)"}, []string{tee, card}},
			{"gt a whole second before fractional seconds", []string{"gt(created_at:2024-03-03T00:00:00Z)"}, []string{card}},
			{"gte with a time", []string{"gte(created_at:2024-03-02T06:30:00%2B02:00)"}, []string{red, tee, card}},
			{"lt with a time", []string{"lt(created_at:2024-03-02T06:30:00%2B02:00)"}, []string{blue}},
			{"lte with a time", []string{"lte(created_at:2024-03-02T06:30:00%2B02:00)"}, []string{blue, red}},
			{"in a list of times", []string{"in(created_at:2024-03-01T08:00:00Z, 2024-03-02T12:00:00Z)"}, []string{blue, tee}},
			{"a null time meets no comparison", []string{"lt(updated_at:2024-03-01)"}, []string{tee}},
			{"a null time is not equal to a time", []string{"neq(updated_at:2024-03-05T00:00:00Z)"}, []string{blue, tee, card}},
			{"a null time is not in a list", []string{"nin(updated_at:2024-03-05)"}, []string{blue, tee, card}},
			{"conditions joined by + all hold", []string{"like(title:*shirt)+eq(gift_card:true)"}, []string{red}},
			{"conditions joined by a space all hold", []string{"like(title:*shirt) eq(gift_card:true)"}, []string{red}},
			{"every filter parameter holds", []string{"like(title:*shirt)", "eq(gift_card:false)"}, []string{blue}},
		} {
			t.Run(c.rule, func(t *testing.T) {
				f, err := filter.Parse(c.filters, productColumns)
				if err != nil {
					t.Fatal(err)
				}
				found := db.Client.Product.Query().
					Where(product.ShopID(shop.ID), predicate.Product(f.Predicate())).
					Order(ent.Asc(product.FieldID)).AllX(ctx)
				var titles []string
				for _, p := range found {
					titles = append(titles, p.Title)
				}
				want := slices.Clone(c.want)
				slices.SortFunc(want, func(a, b string) int { return ids[a] - ids[b] })
				if !slices.Equal(titles, want) {
					t.Fatalf("%q found %q, want %q", c.filters, titles, want)
				}
			})
		}
	})
}
