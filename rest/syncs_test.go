package rest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/customer"
	"github.com/checkoutd/checkoutd/ent/platformsync"
	"github.com/checkoutd/checkoutd/examples/platform/platformserver"
)

func TestACustomerSyncImportsEveryCustomerAcrossPagesAndASecondTriggerMeanwhileIs409(t *testing.T) {
	eachPlatform(t, func(t *testing.T, a *api, pf *platformserver.Server, url string) {
		sync := "/customers/v2/shops/" + a.shop + "/sync"
		a.do("POST", sync, nil).wantError(t, 501, "", "sync.no_destination")
		a.do("POST", destinationsPath(a), destinationBody(map[string]any{"topic": "customers", "destination": url})).wantStatus(t, 200)
		pf.SeedCustomers(a.shop, 600)
		pf.SetDelay(200 * time.Millisecond) // the first page is still being fetched when the second trigger comes
		if d := a.do("POST", sync, nil).wantStatus(t, 200).data(t); len(d) != 0 {
			t.Fatalf("trigger answered %v, want {}", d)
		}
		a.do("POST", sync, nil).wantError(t, 409, "", "sync.in_progress")
		pf.SetDelay(0)
		ctx := context.Background()
		eventually(t, "the sync succeeded", func() bool {
			s, err := a.svc.Client().PlatformSync.Query().Only(ctx)
			return err == nil && s.Status == platformsync.StatusSucceeded
		})
		s, _ := a.svc.Client().PlatformSync.Query().Only(ctx)
		if s.Pages != 3 || s.Rows != 600 || s.Errors != 0 {
			t.Fatalf("sync %+v, want 3 pages and 600 rows", s)
		}
		n, err := a.svc.Client().Customer.Query().Where(customer.PlatformDeletedAtIsNil()).Count(ctx)
		if err != nil || n != 600 {
			t.Fatalf("%d customers stored (%v), want 600", n, err)
		}
		var pages []string
		for _, c := range pf.Calls() {
			if c.Method == "GET" && c.Path == "/v1/shops/"+a.shop+"/customers" {
				pages = append(pages, c.Path)
				if !c.SignatureValid {
					t.Fatal("an unsigned page request")
				}
			}
		}
		if len(pages) != 3 {
			t.Fatalf("%d pages asked for, want 3", len(pages))
		}
		// Once it is done another sync may run, and imports nothing twice.
		a.do("POST", sync, nil).wantStatus(t, 200)
		eventually(t, "the second sync succeeded", func() bool {
			n, _ := a.svc.Client().PlatformSync.Query().Where(platformsync.StatusEQ(platformsync.StatusSucceeded)).Count(ctx)
			return n == 2
		})
		if n, _ := a.svc.Client().Customer.Query().Count(ctx); n != 600 {
			t.Fatalf("%d customers after a second sync", n)
		}
	})
}

func TestProductAndOrderSyncsImportThePlatformsCatalogAndOrders(t *testing.T) {
	eachPlatform(t, func(t *testing.T, a *api, pf *platformserver.Server, url string) {
		ctx := context.Background()
		for _, topic := range []string{"products", "orders"} {
			a.do("POST", "/"+topic+"/v2/shops/"+a.shop+"/sync", nil).wantError(t, 501, "", "sync.no_destination")
			a.do("POST", destinationsPath(a), destinationBody(map[string]any{"topic": topic, "destination": url})).wantStatus(t, 200)
		}
		for i := range 3 {
			pf.AddProduct(a.shop, platformserver.Product{Name: fmt.Sprintf("Tea %d", i),
				Variants: []platformserver.Variant{{PlatformID: fmt.Sprintf("var_%d", i), SKU: fmt.Sprintf("TEA-%d", i), Price: "4.50"}}})
			pf.AddOrder(a.shop, platformserver.Order{OrderNumber: fmt.Sprintf("100%d", i), Currency: "USD", Total: "9.00"})
		}
		for _, topic := range []string{"products", "orders"} {
			a.do("POST", "/"+topic+"/v2/shops/"+a.shop+"/sync", nil).wantStatus(t, 200)
		}
		eventually(t, "both syncs succeeded", func() bool {
			n, _ := a.svc.Client().PlatformSync.Query().Where(platformsync.StatusEQ(platformsync.StatusSucceeded)).Count(ctx)
			return n == 2
		})
		if n, _ := a.svc.Client().Variant.Query().Count(ctx); n != 3 {
			t.Fatalf("%d variants imported, want 3", n)
		}
		if n, _ := a.svc.Client().PlatformOrder.Query().Count(ctx); n != 3 {
			t.Fatalf("%d platform orders imported, want 3", n)
		}
		for _, s := range a.svc.Client().PlatformSync.Query().AllX(ctx) {
			if s.Errors != 0 || s.Rows != 3 {
				t.Fatalf("sync %+v", s)
			}
		}
	})
}
