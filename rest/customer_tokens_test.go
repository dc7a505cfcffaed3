package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/ent/connectorcall"
	"github.com/checkoutd/checkoutd/examples/platform/platformserver"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
)

// initFor is init's body for an authenticated customer with token.
func initFor(platformID, token string) map[string]any {
	body := cart()
	body["customer"] = map[string]any{"platform_id": platformID, "first_name": "Ada", "last_name": "Lovelace", "email_address": "ada@example.com"}
	if token != "" {
		body["customer_jwt"] = token
	}
	return body
}

func TestInitWithAnAuthenticatedCustomerAsksThePlatformAndRefusesAnInactiveToken(t *testing.T) {
	eachPlatform(t, func(t *testing.T, a *api, pf *platformserver.Server, url string) {
		initPath := "/checkout/orders/" + a.shop + "/init"
		// Without a customers destination checkoutd has no one to ask.
		a.do("POST", initPath, initFor("cus_anyone", "")).wantStatus(t, 200)

		a.do("POST", destinationsPath(a), destinationBody(map[string]any{"topic": "customers", "destination": url})).wantStatus(t, 200)
		c := pf.AddCustomer(a.shop, platformserver.Customer{FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com"})
		token := pf.IssueCustomerToken(a.shop, c.PlatformID)
		d := a.do("POST", initPath, initFor(c.PlatformID, token)).wantStatus(t, 200).data(t)
		if d["public_order_id"] == nil {
			t.Fatalf("init %v", d)
		}
		a.do("POST", initPath, initFor(c.PlatformID, "ctok_forged")).wantError(t, 401, "", "customer.token_invalid")
		a.do("POST", initPath, initFor(c.PlatformID, "")).wantError(t, 401, "", "customer.token_invalid")
		a.do("POST", initPath, initFor("cus_nobody", token)).wantError(t, 401, "", "customer.token_invalid")
		pf.FailNext("/validate", http.StatusInternalServerError, 1)
		a.do("POST", initPath, initFor(c.PlatformID, token)).wantError(t, 503, "", "platform.unavailable")

		// Each validation is in the call log, without the token.
		calls, err := a.svc.Client().ConnectorCall.Query().Where(connectorcall.Operation("validate_customer_token")).All(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(calls) != 4 {
			t.Fatalf("%d validations logged, want 4", len(calls))
		}
		for _, call := range calls {
			if strings.Contains(call.RequestBody, token) {
				t.Fatalf("the log holds the token: %s", call.RequestBody)
			}
		}
	})
}

func TestAnAuthenticatedCustomersNewAddressIsCreatedOnThePlatformOnceAndKept(t *testing.T) {
	eachPlatform(t, func(t *testing.T, a *api, pf *platformserver.Server, url string) {
		a.do("POST", destinationsPath(a), destinationBody(map[string]any{"topic": "customers", "destination": url})).wantStatus(t, 200)
		pc := pf.AddCustomer(a.shop, platformserver.Customer{FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com"})
		gw := gatewaytest.New(t, gatewayAPIToken)
		gatewayID := addGateway(t, a, gw, "Gateway")
		d := a.do("POST", "/checkout/orders/"+a.shop+"/init", initFor(pc.PlatformID, pf.IssueCustomerToken(a.shop, pc.PlatformID))).wantStatus(t, 200).data(t)
		c := &checkout{t: t, a: a, id: d["public_order_id"].(string), jwt: d["jwt_token"].(string)}
		c.base = "/checkout/storefront/" + a.shop + "/" + c.id
		c.call("POST", "/addresses/shipping", usAddress()).wantStatus(t, 200)
		c.call("POST", "/addresses/billing", usAddress()).wantStatus(t, 200) // the same address: created once
		c.call("POST", "/shipping_lines", map[string]any{"index": "0"}).wantStatus(t, 200)
		c.pay(gatewayID, "tok_1", 0).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantStatus(t, 200)
		eventually(t, "the address on the platform and in the store", func() bool {
			got, ok := pf.Customer(a.shop, pc.PlatformID)
			stored, err := a.svc.Customers.Customer(context.Background(), shopEntity(t, a), pc.PlatformID)
			return ok && len(got.Addresses) == 1 && got.Addresses[0].City == "Albany" && err == nil && len(stored.Edges.Addresses) == 1
		})
		// Checking out again with the same address creates nothing more.
		d = a.do("POST", "/checkout/orders/"+a.shop+"/init", initFor(pc.PlatformID, pf.IssueCustomerToken(a.shop, pc.PlatformID))).wantStatus(t, 200).data(t)
		c = &checkout{t: t, a: a, id: d["public_order_id"].(string), jwt: d["jwt_token"].(string)}
		c.base = "/checkout/storefront/" + a.shop + "/" + c.id
		c.call("POST", "/addresses/shipping", usAddress()).wantStatus(t, 200)
		c.call("POST", "/addresses/billing", usAddress()).wantStatus(t, 200)
		c.call("POST", "/shipping_lines", map[string]any{"index": "0"}).wantStatus(t, 200)
		c.pay(gatewayID, "tok_2", 0).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantStatus(t, 200)
		n, err := a.svc.Client().ConnectorCall.Query().Where(connectorcall.Operation("create_address")).Count(context.Background())
		if err != nil || n != 1 {
			t.Fatalf("%d create address calls, want 1", n)
		}
	})
}

func TestAnAuthenticatedCustomerRenamedAtCheckoutIsUpdatedOnThePlatform(t *testing.T) {
	eachPlatform(t, func(t *testing.T, a *api, pf *platformserver.Server, url string) {
		ctx := context.Background()
		a.do("POST", destinationsPath(a), destinationBody(map[string]any{"topic": "customers", "destination": url})).wantStatus(t, 200)
		pc := pf.AddCustomer(a.shop, platformserver.Customer{FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com"})
		n := &platformserver.Notifier{BaseURL: a.url, AccessToken: a.token}
		if err := n.CustomerSaved(ctx, a.shop, pc); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the store knows the customer", func() bool {
			_, err := a.svc.Customers.Customer(ctx, shopEntity(t, a), pc.PlatformID)
			return err == nil
		})
		gw := gatewaytest.New(t, gatewayAPIToken)
		gatewayID := addGateway(t, a, gw, "Gateway")
		body := initFor(pc.PlatformID, pf.IssueCustomerToken(a.shop, pc.PlatformID))
		body["customer"].(map[string]any)["first_name"] = "Augusta"
		d := a.do("POST", "/checkout/orders/"+a.shop+"/init", body).wantStatus(t, 200).data(t)
		c := &checkout{t: t, a: a, id: d["public_order_id"].(string), jwt: d["jwt_token"].(string)}
		c.base = "/checkout/storefront/" + a.shop + "/" + c.id
		c.call("POST", "/addresses/shipping", usAddress()).wantStatus(t, 200)
		c.call("POST", "/addresses/billing", usAddress()).wantStatus(t, 200)
		c.call("POST", "/shipping_lines", map[string]any{"index": "0"}).wantStatus(t, 200)
		c.pay(gatewayID, "tok_1", 0).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantStatus(t, 200)
		eventually(t, "the new name on the platform and in the store", func() bool {
			got, _ := pf.Customer(a.shop, pc.PlatformID)
			stored, err := a.svc.Customers.Customer(ctx, shopEntity(t, a), pc.PlatformID)
			return got.FirstName == "Augusta" && got.LastName == "Lovelace" && err == nil && stored.FirstName == "Augusta"
		})
	})
}
