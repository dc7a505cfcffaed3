package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// frontendLibraryDir holds the Node project that drives checkoutd with the public frontend
// library, pinned in its package.json and package-lock.json.
const frontendLibraryDir = "testdata/frontend-library"

var (
	npmOnce sync.Once
	npmErr  error
	npmOut  []byte
)

// frontendLibrary installs the pinned library once per test binary. Without node or npm, or
// without the registry, the test skips, except under CI=true, where the library run is required.
func frontendLibrary(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is required under CI to run the frontend library against checkoutd", tool)
			}
			t.Skipf("%s not installed: skipping the run of @boldcommerce/checkout-frontend-library against checkoutd", tool)
		}
	}
	npmOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = frontendLibraryDir
		npmOut, npmErr = cmd.CombinedOutput()
	})
	if npmErr != nil {
		// Outside CI, a machine that cannot reach the npm registry cannot have the library.
		if os.Getenv("CI") != "true" {
			t.Skipf("npm ci in %s failed, so the library is not installed: %v\n%s", frontendLibraryDir, npmErr, npmOut)
		}
		t.Fatalf("npm ci in %s: %v\n%s", frontendLibraryDir, npmErr, npmOut)
	}
	return frontendLibraryDir
}

// libraryStep is the library's verdict on one call.
type libraryStep struct {
	Step    string `json:"step"`
	Success bool   `json:"success"`
	Status  int    `json:"status"`
	Thrown  string `json:"thrown"`
	Problem string `json:"problem"`
	Error   any    `json:"error"`
}

// libraryRun is what checkout.mjs prints.
type libraryRun struct {
	Completed bool           `json:"completed"`
	Failed    *libraryStep   `json:"failed"`
	Steps     []libraryStep  `json:"steps"`
	State     map[string]any `json:"state"`
}

// runLibraryCheckout runs checkout.mjs against the server with init's data.
func runLibraryCheckout(t *testing.T, dir string, a *api, initData map[string]any) libraryRun {
	t.Helper()
	initFile := filepath.Join(t.TempDir(), "init.json")
	raw, err := json.Marshal(initData)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(initFile, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "node", "checkout.mjs", a.url, a.shop, initFile)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node checkout.mjs: %v\nstderr:\n%s\nstdout:\n%s", err, stderr.String(), stdout.String())
	}
	var run libraryRun
	if err := json.Unmarshal(stdout.Bytes(), &run); err != nil {
		t.Fatalf("checkout.mjs printed no summary: %v\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	return run
}

// The shop sells a mug with tracked stock, taxes New York at 8.875% (shipping included), has a
// 10% code, and takes cards through a gateway that checks the signature of every call. The
// library, pointed at checkoutd, takes the order from init to processed.
func TestFrontendLibraryRunsAGuestCheckoutUnchanged(t *testing.T) {
	dir := frontendLibrary(t)
	eachAPI(t, func(t *testing.T, a *api) {
		ctx := context.Background()
		sh, err := a.svc.Shops.ShopByIdentifier(ctx, a.shop)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.svc.Catalog.CreateProduct(ctx, sh, catalog.ProductInput{PlatformID: "p-mug", Title: "Mug",
			Variants: []catalog.VariantInput{{PlatformID: "v-mug", SKU: "MUG-1", Price: 1250, Weight: 300, InventoryTracked: true, InventoryQuantity: 5}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.svc.Shops.CreateTaxZone(ctx, sh, shops.TaxZoneInput{Name: "NY sales tax", CountryCode: "US", ProvinceCode: "NY", RatePpm: 88750, ShippingTaxable: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.svc.Shops.CreateDiscountCode(ctx, sh, shops.DiscountCodeInput{Code: "SAVE10", Text: "10% off", Kind: discountcode.KindPercentage, Value: 1000}); err != nil {
			t.Fatal(err)
		}
		const apiToken = "gw-secret-token"
		gw := gatewaytest.New(t, apiToken)
		a.do("POST", a.shopPath("/external_payment_gateways"), map[string]any{
			"name": "Test card gateway", "base_url": gw.URL, "iframe_url": gw.URL + "/frame", "location": "payment_gateway",
			"api_token": apiToken, "partial_capture": true, "additional_order_details": false,
			"provider_id": gatewaytest.ProviderID, "currency": "USD",
		}).wantStatus(t, 200)
		init := a.do("POST", "/checkout/orders/"+a.shop+"/init", map[string]any{"cart_items": []map[string]any{
			{"platform_id": "v-mug", "quantity": 1, "line_item_key": "mug"},
		}}).wantStatus(t, 200).data(t)

		run := runLibraryCheckout(t, dir, a, init)
		for _, s := range run.Steps {
			t.Logf("%-28s success=%v status=%d", s.Step, s.Success, s.Status)
		}
		if !run.Completed {
			f, _ := json.MarshalIndent(run.Failed, "", "  ")
			t.Fatalf("the library failed a step:\n%s", f)
		}

		// What the library holds is what checkoutd stored.
		server := stateOf(t, storefront(t, a, init["jwt_token"].(string), "GET",
			"/checkout/storefront/"+a.shop+"/"+init["public_order_id"].(string)+"/refresh", nil).wantStatus(t, 200))
		customer := server["customer"].(map[string]any)
		if customer["last_name"] != "King" || customer["accepts_marketing"] != true || run.State["customer"].(map[string]any)["last_name"] != "King" {
			t.Fatalf("customer: server %v, library %v", customer, run.State["customer"])
		}
		addresses := server["addresses"].(map[string]any)
		if addresses["shipping"].(map[string]any)["city"] != "Albany" || addresses["billing"].(map[string]any)["city"] != "Albany" {
			t.Fatalf("addresses %v", addresses)
		}
		selected := server["shipping"].(map[string]any)["selected_shipping"].(map[string]any)
		if selected["code"] != "standard" || run.State["selected_shipping"].(map[string]any)["code"] != "standard" {
			t.Fatalf("selected shipping: server %v, library %v", selected, run.State["selected_shipping"])
		}
		line := server["line_items"].([]any)[0].(map[string]any)["product_data"].(map[string]any)
		if line["quantity"].(float64) != 2 || run.State["order_total"].(float64) != server["order_total"].(float64) {
			t.Fatalf("line %v, total: server %v, library %v", line, server["order_total"], run.State["order_total"])
		}
		discounts, taxes := server["discounts"].([]any), server["taxes"].([]any)
		if len(discounts) != 1 || discounts[0].(map[string]any)["value"].(float64) != 250 || len(taxes) == 0 {
			t.Fatalf("discounts %v, taxes %v", discounts, taxes)
		}
		var taxTotal float64
		for _, tx := range taxes {
			taxTotal += tx.(map[string]any)["value"].(float64)
		}
		if want := 2*1250 - 250 + 1000 + taxTotal; server["order_total"].(float64) != want || taxTotal == 0 {
			t.Fatalf("order total %v, want %v (tax %v)", server["order_total"], want, taxTotal)
		}
		if server["order_meta_data"].(map[string]any)["notes"] != "leave at the door" {
			t.Fatalf("order_meta_data %v", server["order_meta_data"])
		}

		// Processed, and paid through the gateway: one /auth for the whole total (the test gateway
		// records a call only once its signature checks out).
		if server["is_processed"] != true || server["platform_order_id"] == "" || run.State["is_processed"] != true {
			t.Fatalf("not processed: server is_processed %v platform_order_id %q, library %v", server["is_processed"], server["platform_order_id"], run.State["is_processed"])
		}
		auths := gw.Calls("/auth")
		if len(auths) != 1 || auths[0].Status != 200 {
			t.Fatalf("gateway /auth calls %+v", auths)
		}
		body := auths[0].Body
		if body["amount"].(float64) != server["order_total"].(float64) || body["currency"] != "USD" || body["token"] != gatewaytest.TokenOK {
			t.Fatalf("gateway authorized %v, order total %v", body, server["order_total"])
		}
		if payments := server["payments"].([]any); len(payments) != 1 || payments[0].(map[string]any)["status"] != "authorized" {
			t.Fatalf("payments %v", payments)
		}
	})
}
