package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/platform"
)

// A backup taken while checkouts run opens and holds every order processed before it began.
func TestABackupTakenWhileCheckoutsRunHoldsEveryOrderProcessedBeforeItBegan(t *testing.T) {
	dir := t.TempDir()
	env := []string{"CHECKOUT_DATABASE_URL=file:" + filepath.Join(dir, "checkout.db")}
	runBinary(t, env, "migrate")
	token := createShop(t, env, "acme")
	gw := gatewaytest.New(t, gatewayToken)
	p := serveProcess(t, env)
	g := p.call(token, "POST", "/checkout/shop/acme/external_payment_gateways", map[string]any{
		"name": "Test gateway", "base_url": gw.URL, "api_token": gatewayToken, "partial_capture": true,
		"additional_order_details": false, "provider_id": gatewaytest.ProviderID, "currency": "USD"}, 200)
	gatewayID := g["data"].(map[string]any)["external_payment_gateway"].(map[string]any)["public_id"].(string)

	var (
		mu        sync.Mutex
		processed []string
		stop      = make(chan struct{})
		failed    = make(chan error, 2)
		wg        sync.WaitGroup
	)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				id, err := checkoutOverREST(p.url, token, "acme", gatewayID)
				if err != nil {
					failed <- err
					return
				}
				mu.Lock()
				processed = append(processed, id)
				mu.Unlock()
			}
		}()
	}
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(processed) }
	for deadline := time.Now().Add(30 * time.Second); count() < 6; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("only %d checkouts in 30s", count())
		}
	}
	mu.Lock()
	before := slices.Clone(processed)
	mu.Unlock()
	backup := filepath.Join(dir, "backup.db")
	runBinary(t, env, "backup", "--to", backup)
	during := count() - len(before)
	for deadline := time.Now().Add(10 * time.Second); count() == len(before)+during && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond) // the checkouts go on after the backup, so it stopped none
	}
	close(stop)
	wg.Wait()
	close(failed)
	for err := range failed {
		t.Fatal(err)
	}
	t.Logf("%d orders processed before the backup began, %d while it ran, %d in all", len(before), during, count())

	db, err := platform.OpenDatabase("file:" + backup)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.SQL.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check of the copy: %q %v", check, err)
	}
	orders, err := db.Client.Order.Query().Where(order.PublicOrderIDIn(before...)).WithPayments().All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(orders) != len(before) {
		t.Fatalf("the copy holds %d of the %d orders processed before the backup", len(orders), len(before))
	}
	for _, o := range orders {
		if o.Status != order.StatusProcessed || len(o.Edges.Payments) != 1 {
			t.Errorf("order %s in the copy: %s with %d payments", o.PublicOrderID, o.Status, len(o.Edges.Payments))
		}
	}
}

// checkoutOverREST runs a guest checkout of one mug paid by card to process_order, as
// processedOrder does, answering errors instead of failing the test (it runs off the test's goroutine).
func checkoutOverREST(base, token, shop, gatewayID string) (string, error) {
	call := func(bearer, method, path string, body any) (map[string]any, error) {
		b, _ := json.Marshal(body)
		req, err := http.NewRequest(method, base+path, bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+bearer)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, raw)
		}
		var out map[string]any
		return out, json.Unmarshal(raw, &out)
	}
	init, err := call(token, "POST", "/checkout/orders/"+shop+"/init", map[string]any{"cart_items": []map[string]any{
		{"sku": "MUG-1", "quantity": 1, "line_item_key": "k1", "title": "Mug", "price": 1250}}})
	if err != nil {
		return "", err
	}
	d := init["data"].(map[string]any)
	id, jwt := d["public_order_id"].(string), d["jwt_token"].(string)
	path := "/checkout/storefront/" + shop + "/" + id
	address := map[string]any{"first_name": "Ada", "last_name": "Lovelace", "address_line_1": "1 Main St", "city": "Albany",
		"country_code": "US", "province_code": "NY", "postal_code": "12207"}
	for _, step := range []struct {
		path string
		body any
	}{
		{"/customer/guest", map[string]any{"first_name": "Ada", "last_name": "Lovelace", "email_address": "ada@example.com"}},
		{"/addresses/shipping", address},
		{"/addresses/billing", address},
		{"/shipping_lines", map[string]any{"index": "0"}},
		{"/payments", map[string]any{"gateway_public_id": gatewayID, "token": gatewaytest.TokenOK, "currency": "USD",
			"type": "credit_card", "display_string": "Visa ending 4242"}},
		{"/process_order", nil},
	} {
		if _, err := call(jwt, "POST", path+step.path, step.body); err != nil {
			return "", err
		}
	}
	return id, nil
}

func TestABackupOverwritesNoFileAndCreatesNoDatabase(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.db")
	if err := os.WriteFile(existing, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CHECKOUT_DATABASE_URL", "file:"+filepath.Join(dir, "checkout.db"))
	ctx := context.Background()
	if err := run(ctx, []string{"migrate"}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	err := run(ctx, []string{"backup", "--to", existing}, io.Discard, io.Discard)
	if kept, _ := os.ReadFile(existing); err == nil || exitStatus(err) != 1 || string(kept) != "keep" {
		t.Fatalf("a backup onto an existing file: %v, the file holds %q", err, kept)
	}

	missing := filepath.Join(dir, "missing.db")
	t.Setenv("CHECKOUT_DATABASE_URL", "file:"+missing)
	err = run(ctx, []string{"backup", "--to", filepath.Join(dir, "copy.db")}, io.Discard, io.Discard)
	if _, statErr := os.Stat(missing); err == nil || !strings.Contains(err.Error(), "no database to back up") || statErr == nil {
		t.Fatalf("a backup of a missing database: %v (%v)", err, statErr)
	}
	if leftover, _ := filepath.Glob(filepath.Join(dir, "*.partial")); len(leftover) != 0 {
		t.Fatalf("left behind %v", leftover)
	}
}
