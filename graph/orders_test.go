package graph_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/golang-jwt/jwt/v5"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// testClock is the service's clock, moved by hand instead of by sleeping.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// orderGraph is a GraphQL server on one database with a shop "shop-a" that sells a mug, and a
// count of the SQL statements the server ran.
type orderGraph struct {
	t       *testing.T
	url     string
	svc     *service.Service
	db      *platform.Database
	clock   *testClock
	token   string
	queries atomic.Int64
}

func eachOrderGraph(t *testing.T, fn func(t *testing.T, g *orderGraph)) {
	// Each test has its own server and databases: tests run side by side.
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		g := &orderGraph{t: t, db: db, clock: &testClock{now: time.Now()}}
		counted := ent.NewClient(ent.Driver(dialect.DebugWithContext(entsql.OpenDB(db.Dialect, db.SQL), func(context.Context, ...any) {
			g.queries.Add(1)
		})))
		g.svc = service.New(&platform.Database{SQL: db.SQL, Dialect: db.Dialect, Client: counted, Read: counted}, service.WithClock(g.clock.Now),
			service.WithOutboundAllowPrivate(true))
		srv := httptest.NewServer(graph.Handler(g.svc))
		t.Cleanup(srv.Close)
		g.url = srv.URL
		g.token = g.newShop("shop-a")
		fn(t, g)
	})
}

// newShop creates a shop selling one mug (platform id "mug-white", sku "MUG-W", 15.00) and
// returns its access token.
func (g *orderGraph) newShop(id string) string {
	g.t.Helper()
	ctx := context.Background()
	created, err := g.svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: id})
	if err != nil {
		g.t.Fatal(err)
	}
	if _, err := g.svc.Catalog.CreateProduct(ctx, created.Shop, catalog.ProductInput{PlatformID: "mug", Title: "Enamel mug",
		Variants: []catalog.VariantInput{{PlatformID: "mug-white", SKU: "MUG-W", Title: "White", Price: 1500, Weight: 350}}}); err != nil {
		g.t.Fatal(err)
	}
	return created.AccessToken
}

func (g *orderGraph) do(credential, q string, vars map[string]any) gqlResult {
	g.t.Helper()
	return query(g.t, g.url, credential, q, vars)
}

// ok runs q and fails the test on any error.
func (g *orderGraph) ok(credential, q string, vars map[string]any) map[string]any {
	g.t.Helper()
	r := g.do(credential, q, vars)
	if len(r.Errors) > 0 {
		g.t.Fatalf("errors %v", r.Errors)
	}
	return r.Data
}

// get walks decoded JSON by object keys and list indexes.
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

const orderViewFragment = `
fragment view on OrderView {
  publicOrderID jwtToken
  applicationState {
    customer { platformID publicID firstName lastName emailAddress acceptsMarketing }
    addresses { shipping { id countryCode country province provinceCode postalCode city } billing { countryCode city } }
    lineItems { productData { id lineItemKey title quantity price totalPrice sku variantID properties } fulfilledQuantity taxes { value } }
    taxes { value } discounts { value } payments { id amount }
    orderTotal orderBalance
    orderMetaData { cartParameters noteAttributes notes tags }
    shipping { selectedShipping { id code amount description } availableShippingLines { id code amount description } }
    currency { isoCode symbol hasDecimal } isProcessed platformOrderID
  }
}`

const initOrder = `mutation($in: InitOrderInput!) { initOrder(input: $in) { ...view initialData } }` + orderViewFragment

var mugCart = map[string]any{"in": map[string]any{"cartItems": []any{
	map[string]any{"platformID": "mug-white", "quantity": 2, "lineItemKey": "mug"},
}}}

// init starts an order of the shop of token and returns its public id and JWT.
func (g *orderGraph) init(token string) (string, string) {
	g.t.Helper()
	v := g.ok(token, initOrder, mugCart)["initOrder"]
	return get(v, "publicOrderID").(string), get(v, "jwtToken").(string)
}

func TestInitOrderAnswersTheOrderJWTAndTheStateWithProductData(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		v := g.ok(g.token, initOrder, mugCart)["initOrder"]
		if get(v, "publicOrderID") == "" || strings.Count(get(v, "jwtToken").(string), ".") != 2 {
			t.Fatalf("no order id or JWT: %v", v)
		}
		st := get(v, "applicationState")
		line := get(st, "lineItems", 0, "productData")
		if get(line, "sku") != "MUG-W" || get(line, "title") != "Enamel mug - White" || get(line, "totalPrice") != 3000.0 || get(line, "variantID") != "mug-white" {
			t.Fatalf("product data %v", line)
		}
		if get(st, "orderTotal") != 3000.0 || get(st, "orderBalance") != 3000.0 || get(st, "currency", "isoCode") != "USD" {
			t.Fatalf("state %v", st)
		}
		if get(st, "customer") != nil || len(get(st, "shipping", "availableShippingLines").([]any)) != 0 || get(st, "isProcessed") != false {
			t.Fatalf("a new order has no customer and no shipping lines: %v", st)
		}
		if get(v, "initialData", "shop_name") == nil {
			t.Fatalf("initial data missing: %v", get(v, "initialData"))
		}
	})
}

// step is one checkout mutation with what its answer's state must show.
type step struct {
	name  string
	query string
	check func(st any) bool
}

func TestEveryOrderMutationAnswersTheNewState(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		steps := []step{
			{"createGuestCustomer", `mutation($id: String!) { r: createGuestCustomer(publicOrderId: $id, input: {firstName: "Ada", lastName: "Lovelace", emailAddress: "ada@example.com"}) { ...view } }`,
				func(st any) bool {
					return get(st, "customer", "emailAddress") == "ada@example.com" && get(st, "customer", "platformID") == nil
				}},
			{"updateCustomer", `mutation($id: String!) { r: updateCustomer(publicOrderId: $id, input: {firstName: "Ada", lastName: "King", emailAddress: "ada@example.org", acceptsMarketing: true}) { ...view } }`,
				func(st any) bool {
					return get(st, "customer", "lastName") == "King" && get(st, "customer", "acceptsMarketing") == true
				}},
			{"setShippingAddress", `mutation($id: String!) { r: setShippingAddress(publicOrderId: $id, input: {firstName: "Ada", addressLine1: "1 Main St", city: "Austin", countryCode: "us", provinceCode: "TX", postalCode: "78701"}) { ...view } }`,
				func(st any) bool {
					return get(st, "addresses", "shipping", "countryCode") == "US" && get(st, "addresses", "shipping", "province") == "Texas" &&
						get(st, "shipping", "availableShippingLines", 0, "code") == "standard"
				}},
			{"updateShippingAddress", `mutation($id: String!) { r: updateShippingAddress(publicOrderId: $id, input: {country: "United States", countryCode: "US", province: "Texas", provinceCode: "TX", city: "Dallas", postalCode: "75201"}) { ...view } }`,
				func(st any) bool { return get(st, "addresses", "shipping", "city") == "Dallas" }},
			{"selectShippingLine", `mutation($id: String!) { r: selectShippingLine(publicOrderId: $id, code: "standard") { ...view } }`,
				func(st any) bool {
					return get(st, "shipping", "selectedShipping", "amount") == 1000.0 && get(st, "orderTotal") == 4000.0
				}},
			{"setBillingAddress", `mutation($id: String!) { r: setBillingAddress(publicOrderId: $id, input: {countryCode: "CA", provinceCode: "ON", city: "Toronto", postalCode: "M5V 2T6"}) { ...view } }`,
				func(st any) bool { return get(st, "addresses", "billing", "countryCode") == "CA" }},
			{"updateBillingAddress", `mutation($id: String!) { r: updateBillingAddress(publicOrderId: $id, input: {country: "Canada", countryCode: "CA", province: "Ontario", provinceCode: "ON", city: "Ottawa", postalCode: "K1A 0B1"}) { ...view } }`,
				func(st any) bool { return get(st, "addresses", "billing", "city") == "Ottawa" }},
			{"addLineItem", `mutation($id: String!) { r: addLineItem(publicOrderId: $id, input: {lineItemKey: "card", platformID: "mug-white", quantity: 1, lineItemProperties: {message: "hi"}}) { ...view } }`,
				func(st any) bool {
					return get(st, "lineItems", 1, "productData", "properties", "message") == "hi" && get(st, "orderTotal") == 5500.0
				}},
			{"updateLineItemQuantity", `mutation($id: String!) { r: updateLineItemQuantity(publicOrderId: $id, lineItemKey: "mug", quantity: 3) { ...view } }`,
				func(st any) bool { return get(st, "lineItems", 0, "productData", "quantity") == 3.0 }},
			{"deleteLineItem", `mutation($id: String!) { r: deleteLineItem(publicOrderId: $id, lineItemKey: "card") { ...view } }`,
				func(st any) bool { return len(get(st, "lineItems").([]any)) == 1 }},
			{"updateOrderMetaData", `mutation($id: String!) { r: updateOrderMetaData(publicOrderId: $id, input: {notes: "leave at door", tags: ["gift"], noteAttributes: {door: "B"}}) { ...view } }`,
				func(st any) bool {
					return get(st, "orderMetaData", "notes") == "leave at door" && get(st, "orderMetaData", "tags", 0) == "gift" &&
						get(st, "orderMetaData", "noteAttributes", "door") == "B"
				}},
			{"deleteBillingAddress", `mutation($id: String!) { r: deleteBillingAddress(publicOrderId: $id) { ...view } }`,
				func(st any) bool { return get(st, "addresses", "billing") == nil }},
			{"deleteShippingAddress", `mutation($id: String!) { r: deleteShippingAddress(publicOrderId: $id) { ...view } }`,
				func(st any) bool {
					return get(st, "addresses", "shipping") == nil && get(st, "shipping", "selectedShipping") == nil
				}},
			{"deleteCustomer", `mutation($id: String!) { r: deleteCustomer(publicOrderId: $id) { ...view } }`,
				func(st any) bool { return get(st, "customer") == nil }},
		}
		for _, s := range steps {
			data := g.ok(jwtToken, s.query+orderViewFragment, map[string]any{"id": id})
			if get(data, "r", "publicOrderID") != id || get(data, "r", "jwtToken") != nil {
				t.Fatalf("%s: answered %v", s.name, data)
			}
			if st := get(data, "r", "applicationState"); !s.check(st) {
				t.Fatalf("%s: state %v", s.name, st)
			}
		}
		again := g.ok(jwtToken, `query($id: String!) { order(publicOrderId: $id) { ...view order { publicOrderID status lineItems { totalCount } } } }`+orderViewFragment, map[string]any{"id": id})
		if get(again, "order", "applicationState", "orderMetaData", "notes") != "leave at door" || get(again, "order", "order", "status") != "open" ||
			get(again, "order", "order", "lineItems", "totalCount") != 1.0 {
			t.Fatalf("order query %v", again)
		}
	})
}

func TestAccessTokenOpensEveryOrderOfItsShopAndNoneOfAnother(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, _ := g.init(g.token)
		q := `mutation($id: String!) { r: createAuthenticatedCustomer(publicOrderId: $id, input: {platformID: "c-1", firstName: "Ada", lastName: "L", emailAddress: "ada@example.com"}) { ...view } }` + orderViewFragment
		if st := get(g.ok(g.token, q, map[string]any{"id": id}), "r", "applicationState"); get(st, "customer", "platformID") != "c-1" {
			t.Fatalf("state %v", st)
		}
		other := g.newShop("shop-b")
		wantCode(t, g.do(other, `query($id: String!) { order(publicOrderId: $id) { publicOrderID } }`, map[string]any{"id": id}), problem.CodeNotFound, "order.not_found")
		wantCode(t, g.do(other, `mutation($id: String!) { deleteCustomer(publicOrderId: $id) { publicOrderID } }`, map[string]any{"id": id}), problem.CodeNotFound, "order.not_found")
	})
}

func TestOrderJWTOpensOnlyItsOwnOrder(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		sibling, _ := g.init(g.token)
		foreign, _ := g.init(g.newShop("shop-b"))
		read := `query($id: String!) { order(publicOrderId: $id) { publicOrderID applicationState { orderTotal } } }`
		change := `mutation($id: String!) { addLineItem(publicOrderId: $id, input: {lineItemKey: "x", title: "X", price: 1, quantity: 1}) { publicOrderID } }`
		for _, other := range []string{sibling, foreign} {
			for _, q := range []string{read, change} {
				r := g.do(jwtToken, q, map[string]any{"id": other})
				wantCode(t, r, problem.CodeUnauthorized, "auth.unauthorized")
				if r.Data != nil && get(r.Data, "order") != nil {
					t.Fatalf("data leaked: %v", r.Data)
				}
			}
		}
		for _, q := range []string{
			`{ shop { identifier } }`,
			`{ orders { totalCount } }`,
			`{ webhookTopics { id } }`,
			`mutation { addCorsDomain(domain: "https://evil.example") { domain } }`,
			`mutation { initOrder(input: {cartItems: [{sku: "MUG-W", quantity: 1}]}) { publicOrderID } }`,
			`mutation($id: String!) { resumeOrder(publicOrderId: $id) { jwtToken } }`,
			`mutation($id: String!) { createAuthenticatedCustomer(publicOrderId: $id, input: {platformID: "c", firstName: "A", lastName: "B", emailAddress: "a@example.com"}) { publicOrderID } }`,
			`query($id: String!) { order(publicOrderId: $id) { initialData } }`,
			`query($id: String!) { order(publicOrderId: $id) { order { shop { identifier accessTokens: lifeElements { totalCount } } } } }`,
			`query($id: String!) { order(publicOrderId: $id) { order { lineItems { edges { node { order { shop { identifier } } } } } } } }`,
		} {
			r := g.do(jwtToken, q, map[string]any{"id": id})
			wantCode(t, r, problem.CodeUnauthorized, "auth.unauthorized")
			if strings.Contains(fmt.Sprint(r.Data), "shop-a") {
				t.Fatalf("%s leaked shop data: %v", q, r.Data)
			}
		}
		if st := get(g.ok(g.token, read, map[string]any{"id": sibling}), "order", "applicationState"); get(st, "orderTotal") != 3000.0 {
			t.Fatalf("the sibling order changed: %v", st)
		}
	})
}

func TestOrderJWTWorksBareAsOnTheStorefrontAPI(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		body, _ := json.Marshal(map[string]any{"query": `query($id: String!) { order(publicOrderId: $id) { publicOrderID } }`, "variables": map[string]any{"id": id}})
		req, _ := http.NewRequest("POST", g.url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", jwtToken)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out gqlResult
		if err := json.NewDecoder(res.Body).Decode(&out); err != nil || len(out.Errors) > 0 || get(out.Data, "order", "publicOrderID") != id {
			t.Fatalf("answer %+v (%v)", out, err)
		}
	})
}

func TestExpiredOrderJWTIsRefusedAndResumeGivesAWorkingOne(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		read := `query($id: String!) { order(publicOrderId: $id) { publicOrderID } }`
		g.clock.Advance(orders.OrderJWTLifetime - time.Minute)
		g.ok(jwtToken, read, map[string]any{"id": id})
		g.clock.Advance(2 * time.Minute)
		wantCode(t, g.do(jwtToken, read, map[string]any{"id": id}), problem.CodeUnauthorized, "auth.token_expired")
		resumed := g.ok(g.token, `mutation($id: String!) { resumeOrder(publicOrderId: $id) { jwtToken } }`, map[string]any{"id": id})
		fresh := get(resumed, "resumeOrder", "jwtToken").(string)
		if get(g.ok(fresh, read, map[string]any{"id": id}), "order", "publicOrderID") != id {
			t.Fatal("the resumed JWT does not open the order")
		}
	})
}

func TestTamperedUnsignedOrForeignKeyOrderJWTIsRefused(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		parts := strings.Split(jwtToken, ".")
		tampered := parts[0] + "." + parts[1] + "." + strings.Repeat("A", len(parts[2]))
		unsigned := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."
		claims, _ := base64.RawURLEncoding.DecodeString(parts[1])
		var c jwt.MapClaims
		if err := json.Unmarshal(claims, &c); err != nil {
			t.Fatal(err)
		}
		foreignKey, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte("not the shop's key"))
		hs512, _ := jwt.NewWithClaims(jwt.SigningMethodHS512, c).SignedString([]byte("not the shop's key"))
		read := `query($id: String!) { order(publicOrderId: $id) { publicOrderID applicationState { orderTotal } } }`
		for name, bad := range map[string]string{"tampered": tampered, "alg none": unsigned, "foreign key": foreignKey, "HS512": hs512, "garbage": "a.b.c"} {
			r := g.do(bad, read, map[string]any{"id": id})
			if len(r.Errors) == 0 || get(r.Errors[0], "extensions", "type") != "auth.unauthorized" || get(r.Data, "order") != nil {
				t.Fatalf("%s JWT: %+v", name, r)
			}
		}
	})
}

func TestOrderMutationErrorsCarryTheRESTCodeAndType(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		vars := map[string]any{"id": id}
		guest := `mutation($id: String!) { createGuestCustomer(publicOrderId: $id, input: {firstName: "Ada", lastName: "L", emailAddress: "ada@example.com"}) { publicOrderID } }`
		r := g.do(jwtToken, `mutation($id: String!) { createGuestCustomer(publicOrderId: $id, input: {firstName: "Ada", lastName: "L", emailAddress: "not-an-email"}) { publicOrderID } }`, vars)
		wantCode(t, r, problem.CodeValidation, "customer.invalid_customer_data")
		if get(r.Errors[0], "extensions", "details", "field") != "email_address" || get(r.Errors[0], "extensions", "status") != 422.0 {
			t.Fatalf("extensions %v", r.Errors[0]["extensions"])
		}
		g.ok(jwtToken, guest, vars)
		wantCode(t, g.do(jwtToken, guest, vars), problem.CodeValidation, "customer.already_exists")
		r = g.do(jwtToken, `mutation($id: String!) { setShippingAddress(publicOrderId: $id, input: {countryCode: "ZZ"}) { publicOrderID } }`, vars)
		wantCode(t, r, problem.CodeValidation, "address.invalid_address")
		if get(r.Errors[0], "extensions", "details", "address_type") != "shipping" {
			t.Fatalf("extensions %v", r.Errors[0]["extensions"])
		}
		wantCode(t, g.do(jwtToken, `mutation($id: String!) { selectShippingLine(publicOrderId: $id, index: "0") { publicOrderID } }`, vars),
			problem.CodeValidation, "shipping.line_not_available")
		wantCode(t, g.do(jwtToken, `mutation($id: String!) { updateLineItemQuantity(publicOrderId: $id, lineItemKey: "nope", quantity: 1) { publicOrderID } }`, vars),
			problem.CodeValidation, "line_item.not_found")
		wantCode(t, g.do(g.token, `mutation { initOrder(input: {cartItems: [{sku: "NOPE", quantity: 1}]}) { publicOrderID } }`, nil),
			problem.CodeValidation, "order.unknown_product")
		wantCode(t, g.do(g.token, `{ order(publicOrderId: "nope") { publicOrderID } }`, nil), problem.CodeNotFound, "order.not_found")
		wantCode(t, g.do("", `{ order(publicOrderId: "nope") { publicOrderID } }`, nil), problem.CodeUnauthorized, "auth.unauthorized")
	})
}

func TestOrdersAreListedWithStatusAndCreatedAtFilters(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		g.init(g.token)
		// Formatted in the local zone, as the rows' created_at are: SQLite compares the stored text.
		between := time.Now().Format(time.RFC3339Nano)
		second, _ := g.init(g.token)
		g.init(g.newShop("shop-b"))
		list := `query($where: OrderWhereInput) { orders(where: $where, orderBy: {field: CREATED_AT, direction: DESC}) { totalCount edges { node { publicOrderID status } } } }`
		if n := get(g.ok(g.token, list, nil), "orders", "totalCount"); n != 2.0 {
			t.Fatalf("%v orders listed, want the shop's 2", n)
		}
		if n := get(g.ok(g.token, list, map[string]any{"where": map[string]any{"status": "processed"}}), "orders", "totalCount"); n != 0.0 {
			t.Fatalf("%v processed orders", n)
		}
		after := g.ok(g.token, list, map[string]any{"where": map[string]any{"status": "open", "createdAtGT": between}})
		if get(after, "orders", "totalCount") != 1.0 || get(after, "orders", "edges", 0, "node", "publicOrderID") != second {
			t.Fatalf("orders created after the first: %v", after)
		}
		before := g.ok(g.token, list, map[string]any{"where": map[string]any{"createdAtLT": between}})
		if get(before, "orders", "totalCount") != 1.0 {
			t.Fatalf("orders created before the second: %v", before)
		}
	})
}

// TestListingOrdersWithLinesAndPaymentsRunsAFixedNumberOfQueries checks that the line items and
// payments of a page of orders are loaded per page, not per order: by ent's collected fields in a
// connection, by the loaders for orders fetched one by one through nodes.
func TestListingOrdersWithLinesAndPaymentsRunsAFixedNumberOfQueries(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		list := `{ orders(first: 50) { totalCount edges { node { publicOrderID
			lineItems { totalCount edges { node { sku quantity order { publicOrderID } } } }
			payments { totalCount edges { node { amount status } } } } } } }`
		count := func(orders int) int64 {
			for i := 0; i < orders; i++ {
				id, _ := g.init(g.token)
				o, err := g.db.Client.Order.Query().Where(order.PublicOrderID(id)).Only(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if err := g.db.Client.OrderPayment.Create().SetOrderID(o.ID).SetPublicID(fmt.Sprintf("pay-%s", id)).SetAmount(3000).SetCurrency("USD").Exec(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			g.queries.Store(0)
			data := g.ok(g.token, list, nil)
			edges := get(data, "orders", "edges").([]any)
			for _, e := range edges {
				if get(e, "node", "lineItems", "edges", 0, "node", "sku") != "MUG-W" || get(e, "node", "payments", "edges", 0, "node", "amount") != 3000.0 {
					t.Fatalf("order without its line or payment: %v", e)
				}
			}
			return g.queries.Load()
		}
		few := count(3)
		many := count(17)
		if few != many {
			t.Fatalf("listing 3 orders ran %d queries, listing 20 ran %d: the count grows with the orders", few, many)
		}
		t.Logf("listing 3 orders and 20 orders: %d queries each", many)
		if many > 8 {
			t.Fatalf("listing 20 orders ran %d queries", many)
		}
	})
}

func TestOrdersFetchedByIDLoadTheirLinesAndPaymentsInOneBatch(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		var ids []any
		for i := 0; i < 12; i++ {
			id, _ := g.init(g.token)
			o, err := g.db.Client.Order.Query().Where(order.PublicOrderID(id)).Only(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if err := g.db.Client.OrderPayment.Create().SetOrderID(o.ID).SetPublicID("pay-" + id).SetAmount(3000).SetCurrency("USD").Exec(context.Background()); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, fmt.Sprint(o.ID))
		}
		bare := `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Order { publicOrderID } } }`
		withEdges := `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Order { publicOrderID
			lineItems { totalCount edges { node { sku } } } payments { edges { node { amount } } } } } }`
		// edgeQueries is what loading the lines and payments of these orders adds to loading them:
		// the least of three tries, since the service's background work (the jobs the orders'
		// init queued) goes through the same counted client and can only add to a count.
		edgeQueries := func(ids []any) int64 {
			least := int64(-1)
			for range 3 {
				g.queries.Store(0)
				g.ok(g.token, bare, map[string]any{"ids": ids})
				nodesOnly := g.queries.Load()
				g.queries.Store(0)
				data := g.ok(g.token, withEdges, map[string]any{"ids": ids})
				for _, n := range get(data, "nodes").([]any) {
					if get(n, "lineItems", "totalCount") != 1.0 || get(n, "lineItems", "edges", 0, "node", "sku") != "MUG-W" || get(n, "payments", "edges", 0, "node", "amount") != 3000.0 {
						t.Fatalf("order without its line or payment: %v", n)
					}
				}
				if added := g.queries.Load() - nodesOnly; least < 0 || added < least {
					least = added
				}
			}
			return least
		}
		few, many := edgeQueries(ids[:2]), edgeQueries(ids)
		// One batch per edge, each the orders and their lines (or payments): four statements.
		if few != many || many > 4 {
			t.Fatalf("the lines and payments of 2 orders took %d queries, of 12 orders %d", few, many)
		}
	})
}

// readyOrder starts an order and, with its JWT, gives it a guest, both addresses and a shipping
// line: everything processOrder needs but payments.
func (g *orderGraph) readyOrder() (string, string) {
	g.t.Helper()
	id, jwtToken := g.init(g.token)
	vars := map[string]any{"id": id, "address": map[string]any{"addressLine1": "1 Main St", "city": "Austin", "countryCode": "US", "provinceCode": "TX", "postalCode": "78701"}}
	for _, q := range []string{
		`mutation($id: String!) { createGuestCustomer(publicOrderId: $id, input: {firstName: "Ada", lastName: "L", emailAddress: "ada@example.com"}) { publicOrderID } }`,
		`mutation($id: String!, $address: AddressInput!) { setShippingAddress(publicOrderId: $id, input: $address) { publicOrderID } }`,
		`mutation($id: String!, $address: AddressInput!) { setBillingAddress(publicOrderId: $id, input: $address) { publicOrderID } }`,
		`mutation($id: String!) { selectShippingLine(publicOrderId: $id, index: "0") { publicOrderID } }`,
	} {
		g.ok(jwtToken, q, vars)
	}
	return id, jwtToken
}

// addGateway registers a test gateway with shop-a and returns its public id.
func (g *orderGraph) addGateway() (string, *gatewaytest.Server) {
	g.t.Helper()
	gw := gatewaytest.New(g.t, "gw-api-token")
	r := g.ok(g.token, `mutation($url: String!, $provider: String!) { createExternalPaymentGateway(input: {name: "Test", baseURL: $url,
		apiToken: "gw-api-token", partialCapture: true, additionalOrderDetails: false, providerID: $provider, currency: "USD"}) { publicID } }`,
		map[string]any{"url": gw.URL, "provider": gatewaytest.ProviderID})
	return get(r, "createExternalPaymentGateway", "publicID").(string), gw
}

const addCard = `mutation($id: String!, $gw: String!, $token: String!) {
	r: addPayment(publicOrderId: $id, input: {gatewayPublicID: $gw, token: $token, type: "credit_card", displayString: "Visa ending 4242"}) { ...view } }` + orderViewFragment

const processOrder = `mutation($id: String!) { processOrder(publicOrderId: $id) {
	view { ...view order { status payments { edges { node { status amount } } } } } requiresAction { publicID status } } }` + orderViewFragment

func TestProcessOrderAuthorizesTheCardThroughItsGatewayAndMarksTheOrderProcessed(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		gatewayID, _ := g.addGateway()
		id, jwtToken := g.readyOrder()
		paid := g.ok(jwtToken, addCard, map[string]any{"id": id, "gw": gatewayID, "token": gatewaytest.TokenOK})
		st := get(paid, "r", "applicationState")
		if get(st, "payments", 0, "amount") != get(st, "orderTotal") || get(st, "orderBalance") != 0.0 {
			t.Fatalf("the card does not cover the order: %v", st)
		}
		res := get(g.ok(jwtToken, processOrder, map[string]any{"id": id}), "processOrder")
		if get(res, "requiresAction") != nil || get(res, "view", "applicationState", "isProcessed") != true ||
			get(res, "view", "applicationState", "platformOrderID") == "" || get(res, "view", "order", "status") != "processed" ||
			get(res, "view", "order", "payments", "edges", 0, "node", "status") != "authorized" {
			t.Fatalf("processOrder answered %v", res)
		}
		wantCode(t, g.do(jwtToken, `mutation($id: String!) { deleteCustomer(publicOrderId: $id) { publicOrderID } }`, map[string]any{"id": id}),
			problem.CodeValidation, "order.not_open")
		ledger := `query($id: String!) { order(publicOrderId: $id) { order { transactions { edges { node { gatewayTransactionID } } } } } }`
		if n := get(g.ok(g.token, ledger, map[string]any{"id": id}), "order", "order", "transactions", "edges"); len(n.([]any)) == 0 {
			t.Fatal("the authorization left no transaction")
		}
		wantCode(t, g.do(jwtToken, ledger, map[string]any{"id": id}), problem.CodeUnauthorized, "auth.unauthorized")
	})
}

func TestDeclinedCardFailsProcessOrderWithTheRESTCodeAndType(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		gatewayID, _ := g.addGateway()
		id, jwtToken := g.readyOrder()
		g.ok(jwtToken, addCard, map[string]any{"id": id, "gw": gatewayID, "token": gatewaytest.TokenDecline})
		r := g.do(jwtToken, processOrder, map[string]any{"id": id})
		wantCode(t, r, problem.CodeValidation, "payment.declined")
		if get(r.Errors[0], "extensions", "details", "field") != "payments" {
			t.Fatalf("extensions %v", r.Errors[0]["extensions"])
		}
	})
}

func TestProcessOrderAnswersThePaymentWhoseGatewayAsksTheShopperToAct(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		gatewayID, _ := g.addGateway()
		id, jwtToken := g.readyOrder()
		paid := g.ok(jwtToken, addCard, map[string]any{"id": id, "gw": gatewayID, "token": gatewaytest.TokenAction})
		res := get(g.ok(jwtToken, processOrder, map[string]any{"id": id}), "processOrder")
		if get(res, "requiresAction", "publicID") != get(paid, "r", "applicationState", "payments", 0, "id") ||
			get(res, "view", "applicationState", "isProcessed") != false || get(res, "view", "order", "status") != "open" {
			t.Fatalf("processOrder answered %v", res)
		}
	})
}

func TestGiftCardTenderIsAddedWithItsPinAndRemovedByID(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		card := get(g.ok(g.token, `mutation { issueGiftCard(input: {amount: 1000}) { pin giftCard { cardToken } } }`, nil), "issueGiftCard")
		add := `mutation($id: String!, $token: String!, $pin: String!) { r: addPayment(publicOrderId: $id, input: {type: "gift_card", token: $token, pin: $pin}) { ...view } }` + orderViewFragment
		vars := map[string]any{"id": id, "token": get(card, "giftCard", "cardToken"), "pin": "0000"}
		wantCode(t, g.do(jwtToken, add, vars), problem.CodeValidation, "gift_card.invalid_card")
		vars["pin"] = get(card, "pin")
		st := get(g.ok(jwtToken, add, vars), "r", "applicationState")
		if get(st, "payments", 0, "amount") != 1000.0 || get(st, "orderBalance") != 2000.0 {
			t.Fatalf("state %v", st)
		}
		removed := g.ok(jwtToken, `mutation($id: String!, $payment: String!) { r: removePayment(publicOrderId: $id, input: {id: $payment}) { ...view } }`+orderViewFragment,
			map[string]any{"id": id, "payment": get(st, "payments", 0, "id")})
		if st := get(removed, "r", "applicationState"); len(get(st, "payments").([]any)) != 0 || get(st, "orderBalance") != 3000.0 {
			t.Fatalf("state after removing %v", st)
		}
	})
}

func TestTaxesAreGeneratedForTheShippingAddressAndProcessOrderRequiresThem(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		g.ok(g.token, `mutation { createTaxZone(input: {name: "TX sales tax", countryCode: "US", provinceCode: "TX", ratePpm: 62500}) { id } }`, nil)
		id, jwtToken := g.readyOrder()
		vars := map[string]any{"id": id}
		process := `mutation($id: String!) { processOrder(publicOrderId: $id) { view { publicOrderID } } }`
		wantCode(t, g.do(jwtToken, process, vars), problem.CodeValidation, "taxes.not_generated")
		st := get(g.ok(jwtToken, `mutation($id: String!) { r: generateTaxes(publicOrderId: $id) { ...view } }`+orderViewFragment, vars), "r", "applicationState")
		tax, _ := get(st, "taxes", 0, "value").(float64)
		if tax <= 0 || get(st, "orderTotal") != 4000+tax || get(st, "lineItems", 0, "taxes", 0, "value") != tax {
			t.Fatalf("state after generating taxes: %v", st)
		}
		wantCode(t, g.do(jwtToken, process, vars), problem.CodeValidation, "order.payments_do_not_cover_total")
	})
}

func TestDiscountCodeIsAppliedAndRemovedWithTheOrderJWT(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		g.ok(g.token, `mutation { createDiscountCode(input: {code: "TENOFF", kind: percentage, value: 1000}) { id } }`, nil)
		id, jwtToken := g.init(g.token)
		apply := `mutation($id: String!, $code: String!) { r: applyDiscountCode(publicOrderId: $id, code: $code) { ...view } }` + orderViewFragment
		remove := `mutation($id: String!, $code: String!) { r: removeDiscountCode(publicOrderId: $id, code: $code) { ...view } }` + orderViewFragment
		st := get(g.ok(jwtToken, apply, map[string]any{"id": id, "code": "tenoff"}), "r", "applicationState")
		if get(st, "discounts", 0, "value") != 300.0 || get(st, "orderTotal") != 2700.0 {
			t.Fatalf("state with the code: %v", st)
		}
		wantCode(t, g.do(jwtToken, apply, map[string]any{"id": id, "code": "NOPE"}), problem.CodeValidation, "discount.invalid_code")
		st = get(g.ok(jwtToken, remove, map[string]any{"id": id, "code": "TENOFF"}), "r", "applicationState")
		if len(get(st, "discounts").([]any)) != 0 || get(st, "orderTotal") != 3000.0 {
			t.Fatalf("state without the code: %v", st)
		}
		wantCode(t, g.do(jwtToken, remove, map[string]any{"id": id, "code": "TENOFF"}), problem.CodeValidation, "discount.not_applied")
	})
}
