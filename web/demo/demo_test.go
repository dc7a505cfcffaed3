package demo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"

	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/graph/generated"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/web/demo"
)

func server(t *testing.T, svc *service.Service) string {
	mux := http.NewServeMux()
	if svc != nil {
		mux.Handle("/graphql", graph.Handler(svc))
	}
	demo.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

func TestDemoPageRunsOnlyItsOwnEmbeddedFiles(t *testing.T) {
	url := server(t, nil)
	res, page := get(t, url+"/demo/demo-shop")
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("page: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "connect-src 'self'") {
		t.Fatalf("content policy %q", csp)
	}
	for _, tag := range regexp.MustCompile(`<script[^>]*>`).FindAllString(page, -1) {
		if !strings.Contains(tag, `src="/demo/static/`) {
			t.Fatalf("script not from the page's own files: %s", tag)
		}
	}
	if strings.Contains(page, "http://") || strings.Contains(page, "https://") || regexp.MustCompile(`<script[^>]*>[^<]`).MatchString(page) {
		t.Fatal("the page loads something from elsewhere or runs inline script")
	}
	for _, f := range []string{"demo.js", "demo.css", "operations.graphql"} {
		if res, body := get(t, url+"/demo/static/"+f); res.StatusCode != 200 || body == "" {
			t.Fatalf("%s: %d", f, res.StatusCode)
		}
	}
}

func TestDemoOperationsAreValidAgainstTheSchema(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	doc, errs := gqlparser.LoadQuery(schema, demo.Operations)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	js, err := demoJS()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range doc.Operations {
		if !strings.Contains(js, `"`+op.Name+`"`) {
			t.Errorf("operation %s is never called by demo.js", op.Name)
		}
	}
}

func demoJS() (string, error) {
	mux := http.NewServeMux()
	demo.Register(mux)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/demo/static/demo.js", nil))
	if rec.Code != 200 {
		return "", io.ErrUnexpectedEOF
	}
	return rec.Body.String(), nil
}

// call sends the page's document with one operation name, as demo.js does.
func call(t *testing.T, url, credential, operation string, vars map[string]any) map[string]any {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": demo.Operations, "operationName": operation, "variables": vars})
	req, _ := http.NewRequest("POST", url+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+credential)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Data   map[string]any   `json:"data"`
		Errors []map[string]any `json:"errors"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || len(out.Errors) > 0 {
		t.Fatalf("%s: %v %v", operation, err, out.Errors)
	}
	return out.Data
}

func TestDemoOperationsWalkAGuestCheckoutOnTheDemoShop(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		svc := service.New(db)
		token, err := svc.EnsureDemoShop(context.Background(), "demo-shop")
		if err != nil {
			t.Fatal(err)
		}
		url := server(t, svc)
		shop := call(t, url, token, "DemoShop", nil)["shop"].(map[string]any)
		variant := shop["products"].(map[string]any)["edges"].([]any)[0].(map[string]any)["node"].(map[string]any)["variants"].(map[string]any)["edges"].([]any)[0].(map[string]any)["node"].(map[string]any)
		init := call(t, url, token, "InitOrder", map[string]any{"input": map[string]any{"cartItems": []any{
			map[string]any{"platformID": variant["platformID"], "quantity": 1, "lineItemKey": "demo-1"}}}})["initOrder"].(map[string]any)
		jwtToken, id := init["jwtToken"].(string), init["publicOrderID"]
		call(t, url, jwtToken, "CreateGuestCustomer", map[string]any{"id": id, "customer": map[string]any{
			"firstName": "Ada", "lastName": "Lovelace", "emailAddress": "ada@example.com"}})
		addressed := call(t, url, jwtToken, "SetShippingAddress", map[string]any{"id": id, "address": map[string]any{
			"addressLine1": "1 Main Street", "city": "Austin", "countryCode": "US", "provinceCode": "TX", "postalCode": "78701"}})
		addressed = call(t, url, jwtToken, "GenerateTaxes", map[string]any{"id": id})
		lines := addressed["generateTaxes"].(map[string]any)["applicationState"].(map[string]any)["shipping"].(map[string]any)["availableShippingLines"].([]any)
		if len(lines) == 0 {
			t.Fatal("no shipping line offered for the demo address")
		}
		chosen := call(t, url, jwtToken, "SelectShippingLine", map[string]any{"id": id, "index": lines[0].(map[string]any)["id"]})
		st := chosen["selectShippingLine"].(map[string]any)["applicationState"].(map[string]any)
		want := variant["price"].(float64) + lines[0].(map[string]any)["amount"].(float64)
		if st["orderTotal"] != want || st["shipping"].(map[string]any)["selectedShipping"] == nil {
			t.Fatalf("state after choosing shipping: %v", st)
		}
		card := call(t, url, token, "IssueDemoGiftCard", map[string]any{"amount": st["orderBalance"]})["issueGiftCard"].(map[string]any)
		paid := call(t, url, jwtToken, "AddGiftCardPayment", map[string]any{"id": id,
			"token": card["giftCard"].(map[string]any)["cardToken"], "pin": card["pin"]})["addPayment"].(map[string]any)
		if balance := paid["applicationState"].(map[string]any)["orderBalance"]; balance != 0.0 {
			t.Fatalf("balance after the gift card: %v", balance)
		}
		processed := call(t, url, jwtToken, "ProcessOrder", map[string]any{"id": id})["processOrder"].(map[string]any)
		final := processed["view"].(map[string]any)["applicationState"].(map[string]any)
		if processed["requiresAction"] != nil || final["isProcessed"] != true || final["platformOrderID"] == "" {
			t.Fatalf("processOrder answered %v", processed)
		}
	})
}
