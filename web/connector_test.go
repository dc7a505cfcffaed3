package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/connectorcall"
	"github.com/checkoutd/checkoutd/examples/platform/platformserver"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/connector"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

const connectorSecret = "connector-secret"

// examplePlatform is the example platform's connector server, taking connectorSecret from every
// shop, served for the test.
func examplePlatform(t *testing.T) (*platformserver.Server, string) {
	t.Helper()
	pf := platformserver.New(map[string][]byte{platformserver.AnyShop: []byte(connectorSecret)})
	srv := httptest.NewServer(pf)
	t.Cleanup(srv.Close)
	return pf, srv.URL
}

// setConnectorSecret gives the console's shop the shared secret the example platform checks.
func (c *console) setConnectorSecret() {
	c.t.Helper()
	if _, err := c.svc.Shops.ConfigureSharedSecret(context.Background(), c.shopEntity(), connectorSecret); err != nil {
		c.t.Fatal(err)
	}
}

// eachConsoleWithJobs is eachConsole with the job queue running, polled often, and quick
// connector retries.
func eachConsoleWithJobs(t *testing.T, fn func(t *testing.T, c *console)) {
	if browserMissing != "" {
		t.Skip(browserMissing)
	}
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		c := newConsole(t, db, service.WithJobPollInterval(20*time.Millisecond), service.WithConnectorRetryBase(10*time.Millisecond))
		if err := c.svc.StartJobs(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = c.svc.StopJobs(ctx)
		})
		fn(t, c)
	})
}

func TestDestinationsAreAddedVerifiedRefusedEditedAndDeleted(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		ctx := context.Background()
		pf, pfURL := examplePlatform(t)
		c.signIn()
		c.visit("/admin/platform-connector")
		c.wantText("nav.sections [aria-current=page]", "Platform connector")
		c.wantText("#no-secret", "no shared secret")
		c.wantText("#no-secret a[href='/admin/integration']", "integration page")
		c.fill(map[string]string{"topic": "orders", "destination": pfURL})
		c.submitAndWait("#add-destination", "#destination-error")
		c.wantText("#form-error", "no shared secret")

		c.setConnectorSecret()
		c.visit("/admin/platform-connector")
		c.wantText("main", "verifies it with a signed call")
		c.wantText("#destination-form", "from 100 to 30000")
		if v := c.value("#timeout_ms"); v != "5000" {
			t.Fatalf("the timeout field starts at %q, want the default 5000", v)
		}
		c.fill(map[string]string{"topic": "orders", "destination": pfURL, "timeout_ms": "3000"})
		c.submitAndWait("#add-destination", "#flash")
		c.wantText("#flash", "verified and saved")
		c.wantText("#destination-orders", pfURL)
		c.wantText("#destination-orders", "3000 ms")
		c.wantNoText("#topic", "orders")
		calls := pf.Calls()
		if len(calls) != 1 || !strings.HasSuffix(calls[0].Path, "/verification") || !calls[0].SignatureValid || calls[0].Shop != c.shop {
			t.Fatalf("the platform answered %+v, want one signed verification call", calls)
		}

		// A destination whose verification fails is refused on the form, and not stored.
		pf.FailNext("/verification", http.StatusInternalServerError, 1)
		c.fill(map[string]string{"topic": "customers", "destination": pfURL})
		c.submitAndWait("#add-destination", "#destination-error")
		c.wantText("#form-error", "did not pass verification")
		c.wantText("#destination-error", "500")
		if v := c.value("#destination"); v != pfURL {
			t.Fatalf("the refused form shows the URL %q, want %q", v, pfURL)
		}
		ds, err := c.svc.Connector.Destinations(ctx, c.shopEntity())
		if err != nil || len(ds) != 1 {
			t.Fatalf("destinations after a refused one: %v (%v)", ds, err)
		}

		// Edit: the timeout is checked by the service, and the URL verified again.
		c.submitAndWait("#destination-orders a.edit", "#save-destination")
		c.fill(map[string]string{"timeout_ms": "50"})
		c.submitAndWait("#save-destination", "#timeout_ms-error")
		c.wantText("#timeout_ms-error", "from 100 to 30000")
		c.fill(map[string]string{"timeout_ms": "2000"})
		c.submitAndWait("#save-destination", "#flash")
		c.wantText("#destination-orders", "2000 ms")
		if calls := pf.Calls(); len(calls) != 3 || !strings.HasSuffix(calls[2].Path, "/verification") || calls[2].Status != http.StatusOK {
			t.Fatalf("the platform answered %+v, want the edit's verification third (after the refused one)", calls)
		}

		c.submitAndWait("#destination-orders a.delete", "#confirm-question")
		c.wantText("#confirm-question", pfURL)
		c.submitAndWait("#confirm", "#flash")
		c.wantText("#flash", "deleted")
		c.wantText("main .empty", "No destinations yet")
		if ds, err := c.svc.Connector.Destinations(ctx, c.shopEntity()); err != nil || len(ds) != 0 {
			t.Fatalf("destinations after the delete: %v (%v)", ds, err)
		}
	})
}

func TestTheConnectorCallLogShowsAFailedCallAndReplaysIt(t *testing.T) {
	eachConsoleWithJobs(t, func(t *testing.T, c *console) {
		ctx := context.Background()
		pf, pfURL := examplePlatform(t)
		c.setConnectorSecret()
		topic := "orders"
		if _, err := c.svc.Connector.CreateDestination(ctx, c.shopEntity(), connector.DestinationInput{Topic: &topic, Destination: &pfURL}); err != nil {
			t.Fatal(err)
		}
		pf.FailNext("/orders", http.StatusUnprocessableEntity, 1)
		orderID := processedOrder(t, c.svc, c.shopEntity(), gatewaytest.New(t, "gw-token"), "ada@example.com")
		call := waitForCall(t, c, connectorcall.StatusFailed)

		c.signIn()
		c.visit("/admin/platform-connector")
		row := fmt.Sprintf("#call-%d", call.ID)
		c.wantText(row, "create_order")
		c.wantText(row+" .status", "failed")
		c.wantText(row+" .last", "422")
		c.run(clickAndWait(row + " summary"))
		c.wantText(row+" .request-body", orderID)
		c.wantText(row+" .attempts", "422")

		c.submitAndWait(row+" button.replay", "#flash")
		c.wantText("#flash", "queued to be sent once more")
		waitForCall(t, c, connectorcall.StatusSucceeded)
		c.visit("/admin/platform-connector")
		c.wantText(row+" .status", "succeeded")
		c.run(clickAndWait(row + " summary"))
		c.wantText(row+" .attempts", "(replay)")
		if n := len(pf.Orders(c.shop)); n != 1 {
			t.Fatalf("the platform holds %d orders, want 1", n)
		}
	})
}

// waitForCall waits until the shop's newest connector call has status, and returns it.
func waitForCall(t *testing.T, c *console, status connectorcall.Status) *ent.ConnectorCall {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		call, err := c.svc.Connector.Calls(c.shopEntity()).Order(ent.Desc(connectorcall.FieldID)).First(context.Background())
		if err == nil && call.Status == status {
			return call
		}
		if time.Now().After(deadline) {
			t.Fatalf("the newest connector call is %+v (%v), want it %s", call, err, status)
		}
	}
}

func TestACustomerSyncIsStartedFromThePageAndItsProgressShown(t *testing.T) {
	eachConsoleWithJobs(t, func(t *testing.T, c *console) {
		ctx := context.Background()
		pf, pfURL := examplePlatform(t)
		c.setConnectorSecret()
		c.signIn()
		c.visit("/admin/platform-connector")
		c.submitAndWait("#sync-customers", "#flash")
		c.wantText("#flash", "no destination for customers")
		topic := "customers"
		if _, err := c.svc.Connector.CreateDestination(ctx, c.shopEntity(), connector.DestinationInput{Topic: &topic, Destination: &pfURL}); err != nil {
			t.Fatal(err)
		}
		pf.SeedCustomers(c.shop, 300)
		c.submitAndWait("#sync-customers", "#flash")
		c.wantText("#flash", "Customer sync started")
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			s, err := c.svc.Connector.Syncs(c.shopEntity()).First(ctx)
			if err == nil && s.Status.String() == "succeeded" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the sync did not finish: %v %v", s, err)
			}
		}
		c.visit("/admin/platform-connector")
		c.wantText("#sync-table .sync-status", "succeeded")
		c.wantText("#sync-table", "300")
	})
}
