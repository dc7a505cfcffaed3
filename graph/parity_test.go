package graph_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	gqlast "github.com/vektah/gqlparser/v2/ast"

	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/rest"
	"github.com/checkoutd/checkoutd/service"
)

// counterpart is a REST order route, the GraphQL field that does what it does, and the service
// call both make.
type counterpart struct {
	// route is the method and pattern, as rest.Routes lists it.
	route string
	// rest is the *API method that serves the route (rest.Route's Handler). It makes the service
	// call, or is handed it where the route is registered (changePayment(a.svc.Orders.AddPayment)).
	rest string
	// graphql is Query.field or Mutation.field.
	graphql string
	// calls is the service call as both write it, without the receiver's path:
	// Orders.SetAddress for r.svc.Orders.SetAddress, orders.ValidateAddress for a function.
	calls string
	// idempotent: both run the call under their door's idempotent, which runs it under
	// checkout.Idempotently (money-moving calls).
	idempotent bool
	// none says why a route has no GraphQL field; such a route calls no service method of its own.
	none string
}

const (
	storefrontRoute = "/checkout/storefront/{shop}/{order}"
	backendRoute    = "/checkout/orders/{shop}/{order}"
)

func storefrontOnly(method, suffix, restFunc, graphql, calls string) []counterpart {
	return []counterpart{{route: method + " " + storefrontRoute + suffix, rest: restFunc, graphql: graphql, calls: calls}}
}

func backendOnly(method, suffix, restFunc, graphql, calls string) []counterpart {
	return []counterpart{{route: method + " " + backendRoute + suffix, rest: restFunc, graphql: graphql, calls: calls}}
}

// both is an operation served on the storefront (order JWT) and backend (access token) paths
// alike; GraphQL takes either credential on the one field.
func both(method, suffix, restFunc, graphql, calls string) []counterpart {
	return slices.Concat(storefrontOnly(method, suffix, restFunc, graphql, calls), backendOnly(method, suffix, restFunc, graphql, calls))
}

func money(suffix, restFunc, graphql, calls string) []counterpart {
	c := backendOnly("POST", suffix, restFunc, graphql, calls)
	c[0].idempotent = true
	return c
}

// orderCounterparts is every REST order route (the storefront's with the order JWT, the
// backend's with the access token) and its GraphQL counterpart. A new REST order route needs a
// row here, and so a GraphQL field calling the same service method.
var orderCounterparts = slices.Concat(
	[]counterpart{
		{route: "POST /checkout/orders/{shop}/init", rest: "initOrder", graphql: "Mutation.initOrder", calls: "Orders.InitOrder"},
		{route: "POST /checkout/orders/{shop}/resume", rest: "resumeOrder", graphql: "Mutation.resumeOrder", calls: "Orders.ResumeOrder"},
	},
	storefrontOnly("GET", "/refresh", "refresh", "Query.order", "Orders.SessionState"),

	both("POST", "/customer/guest", "createCustomer", "Mutation.createGuestCustomer", "Orders.CreateCustomer"),
	backendOnly("POST", "/customer/authenticated", "createCustomer", "Mutation.createAuthenticatedCustomer", "Orders.CreateCustomer"),
	both("PUT", "/customer/guest", "updateGuestCustomer", "Mutation.updateGuestCustomer", "Orders.UpdateGuestCustomer"),
	both("PUT", "/customer", "updateCustomer", "Mutation.updateCustomer", "Orders.UpdateCustomer"),
	both("GET", "/customer", "getCustomer", "Query.order", "Orders.SessionState"),
	both("DELETE", "/customer", "deleteCustomer", "Mutation.deleteCustomer", "Orders.DeleteCustomer"),
	both("GET", "/validate_email_address", "validateEmail", "Query.validateEmailAddress", "orders.ValidateEmailAddress"),

	both("GET", "/validate_address", "validateAddress", "Query.validateAddress", "orders.ValidateAddress"),
	both("POST", "/addresses/shipping", "putAddress", "Mutation.setShippingAddress", "Orders.SetAddress"),
	both("PUT", "/addresses/shipping", "putAddress", "Mutation.updateShippingAddress", "Orders.UpdateAddress"),
	both("GET", "/addresses/shipping", "getAddress", "Query.order", "Orders.SessionState"),
	both("DELETE", "/addresses/shipping", "deleteAddress", "Mutation.deleteShippingAddress", "Orders.DeleteAddress"),
	both("POST", "/addresses/billing", "putAddress", "Mutation.setBillingAddress", "Orders.SetAddress"),
	both("PUT", "/addresses/billing", "putAddress", "Mutation.updateBillingAddress", "Orders.UpdateAddress"),
	both("GET", "/addresses/billing", "getAddress", "Query.order", "Orders.SessionState"),
	both("DELETE", "/addresses/billing", "deleteAddress", "Mutation.deleteBillingAddress", "Orders.DeleteAddress"),

	both("POST", "/items", "addItem", "Mutation.addLineItem", "Orders.AddLineItem"),
	both("PUT", "/items", "updateItemQuantity", "Mutation.updateLineItemQuantity", "Orders.UpdateLineItemQuantity"),
	both("DELETE", "/items", "deleteItem", "Mutation.deleteLineItem", "Orders.DeleteLineItem"),
	both("PATCH", "/meta_data", "patchMetaData", "Mutation.updateOrderMetaData", "Orders.PatchOrderMetaData"),
	backendOnly("PATCH", "/line_items", "fulfillLines", "Mutation.setFulfilledQuantities", "Orders.SetFulfilledQuantities"),
	backendOnly("PATCH", "/line_items/{key}", "fulfillLine", "Mutation.setFulfilledQuantities", "Orders.SetFulfilledQuantities"),

	storefrontOnly("GET", "/shipping_lines", "shippingLines", "Query.shippingLines", "Orders.ShippingLines"),
	storefrontOnly("POST", "/shipping_lines", "selectShippingLine", "Mutation.selectShippingLine", "Orders.SelectShippingLine"),
	storefrontOnly("POST", "/shipping_lines/estimate", "estimateShippingLines", "Query.estimateShippingLines", "Orders.EstimateShippingLines"),
	both("POST", "/taxes", "generateTaxes", "Mutation.generateTaxes", "Orders.GenerateTaxes"),
	storefrontOnly("POST", "/taxes/estimate", "estimateTaxes", "Query.estimateTaxes", "Orders.EstimateTaxes"),
	storefrontOnly("POST", "/discounts", "applyDiscount", "Mutation.applyDiscountCode", "Orders.ApplyDiscountCode"),
	storefrontOnly("DELETE", "/discounts", "removeDiscount", "Mutation.removeDiscountCode", "Orders.RemoveDiscountCode"),
	storefrontOnly("GET", "/validate_discount_code", "validateDiscount", "Query.validateDiscountCode", "Orders.ValidateDiscountCode"),
	storefrontOnly("GET", "/check_inventory", "checkInventory", "Query.checkInventory", "Orders.CheckInventory"),

	storefrontOnly("GET", "/payments", "listPayments", "Query.order", "Orders.SessionState"),
	storefrontOnly("POST", "/payments", "changePayment", "Mutation.addPayment", "Orders.AddPayment"),
	storefrontOnly("PUT", "/payments", "changePayment", "Mutation.updatePayment", "Orders.UpdatePayment"),
	storefrontOnly("DELETE", "/payments", "changePayment", "Mutation.removePayment", "Orders.RemovePayment"),
	storefrontOnly("DELETE", "/payments/gift_card", "changePayment", "Mutation.removePayment", "Orders.RemovePayment"),
	storefrontOnly("GET", "/payments/iframe", "paymentIframe", "Query.paymentIframe", "Orders.PaymentIframe"),
	storefrontOnly("POST", "/payments/styles", "paymentIframeStyles", "Query.checkPaymentIframeStyles", "orders.CheckPaymentIframeStyles"),
	storefrontOnly("POST", "/wallet_pay/create_order", "walletPay", "Mutation.walletPay", "Orders.WalletPay"),
	storefrontOnly("POST", "/wallet_pay/on_shipping", "walletPay", "Mutation.walletPay", "Orders.WalletPay"),
	storefrontOnly("POST", "/wallet_pay/on_approve", "walletPay", "Mutation.walletPay", "Orders.WalletPay"),
	storefrontOnly("DELETE", "/payments/saved/{id}", "deleteSavedPaymentMethod", "Mutation.deleteSavedPaymentMethod", "Orders.DeleteSavedPaymentMethod"),

	[]counterpart{{route: "POST " + storefrontRoute + "/process_order", rest: "processOrder", graphql: "Mutation.processOrder", calls: "Checkout.ProcessOrder", idempotent: true}},
	money("/payments/auth/full", "authorizePayments", "Mutation.authorizePayments", "Checkout.AuthorizePayments"),
	money("/payments/capture", "capture", "Mutation.captureOrder", "Checkout.Capture"),
	money("/payments/capture/full", "capture", "Mutation.captureOrder", "Checkout.Capture"),
	money("/payments/capture/payment/{payment_id}", "capture", "Mutation.captureOrder", "Checkout.Capture"),
	money("/refunds", "refund", "Mutation.refundOrder", "Checkout.Refund"),
	money("/refunds/full", "refund", "Mutation.refundOrder", "Checkout.Refund"),
	money("/refunds/payment/{payment_id}", "refund", "Mutation.refundOrder", "Checkout.Refund"),
	money("/cancel", "cancel", "Mutation.cancelOrder", "Checkout.CancelOrder"),

	[]counterpart{
		{route: "POST " + storefrontRoute + "/batch", rest: "batch",
			none: "GraphQL batches by itself: one document holds several queries or mutations, each answering its own result"},
		{route: "POST " + storefrontRoute + "/log", rest: "clientLog",
			none: "no service call: the storefront's log lines are written to the server's log at debug level"},
	},
)

// isOrderRoute reports whether a REST pattern is an order operation. Preflight (OPTIONS) is
// CORS, answered for every storefront path, not an operation.
func isOrderRoute(pattern string) bool {
	method, path, _ := strings.Cut(pattern, " ")
	return method != "OPTIONS" && (strings.HasPrefix(path, "/checkout/orders/{shop}/") || strings.HasPrefix(path, "/checkout/storefront/{shop}/"))
}

// source is what the Go files of a package (tests left out) refer to, for each function (a method
// as Receiver.Name) and for each call registering a route (by file:line): every selector, written
// as the last name before the dot and the name after it (r.svc.Orders.SetAddress is
// Orders.SetAddress, a method value handed on included), and every function called by its bare
// name.
type source struct {
	funcs         map[string]map[string]bool
	registrations map[string]map[string]bool
}

func readSource(t *testing.T, dir string) source {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s (%v)", dir, err)
	}
	src := source{funcs: map[string]map[string]bool{}, registrations: map[string]map[string]bool{}}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			key := fn.Name.Name
			if fn.Recv != nil && len(fn.Recv.List) == 1 {
				recv := fn.Recv.List[0].Type
				if star, ok := recv.(*ast.StarExpr); ok {
					recv = star.X
				}
				if id, ok := recv.(*ast.Ident); ok {
					key = id.Name + "." + key
				}
			}
			src.funcs[key] = refsIn(fn.Body)
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Handle" || sel.Sel.Name == "HandleFunc") {
						pos := fset.Position(call.Pos())
						src.registrations[filepath.Base(pos.Filename)+":"+strconv.Itoa(pos.Line)] = refsIn(call)
					}
				}
				return true
			})
		}
	}
	return src
}

func refsIn(node ast.Node) map[string]bool {
	refs := map[string]bool{}
	ast.Inspect(node, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			switch x := n.X.(type) {
			case *ast.Ident:
				refs[x.Name+"."+n.Sel.Name] = true
			case *ast.SelectorExpr:
				refs[x.Sel.Name+"."+n.Sel.Name] = true
			}
		case *ast.CallExpr:
			fun := n.Fun
			if ix, ok := fun.(*ast.IndexExpr); ok {
				fun = ix.X
			}
			if id, ok := fun.(*ast.Ident); ok {
				refs[id.Name] = true
			}
		}
		return true
	})
	return refs
}

// resolverOf is the resolver method gqlgen calls for a Query or Mutation field.
func resolverOf(field string) string {
	typ, name, _ := strings.Cut(field, ".")
	r := []rune(name)
	r[0] = unicode.ToUpper(r[0])
	return strings.ToLower(typ) + "Resolver." + string(r)
}

func TestEveryRESTOrderOperationHasAGraphQLCounterpart(t *testing.T) {
	schema := graph.NewSchema(&service.Service{}).Schema()
	restSrc, graphSrc := readSource(t, "../rest"), readSource(t, ".")

	registered := map[string]rest.Route{}
	for _, rt := range rest.Routes(&service.Service{}) {
		if isOrderRoute(rt.Pattern) {
			registered[rt.Pattern] = rt
		}
	}
	rows := map[string]counterpart{}
	for _, c := range orderCounterparts {
		if _, twice := rows[c.route]; twice {
			t.Errorf("%s has two rows", c.route)
		}
		rows[c.route] = c
		if _, ok := registered[c.route]; !ok {
			t.Errorf("%s is in the table but the REST API registers no such route", c.route)
		}
	}
	for p := range registered {
		if _, ok := rows[p]; !ok {
			t.Errorf("REST order route %s has no row: give it a GraphQL field calling the same service method, and a row", p)
		}
	}

	for _, c := range orderCounterparts {
		rt, ok := registered[c.route]
		if !ok {
			continue
		}
		if rt.Handler != c.rest {
			t.Errorf("%s is served by REST's %s, not %s: does its GraphQL counterpart still call what it calls?", c.route, rt.Handler, c.rest)
			continue
		}
		if c.none != "" {
			if c.graphql != "" || c.calls != "" {
				t.Errorf("%s: a row without a counterpart names none", c.route)
			}
			continue
		}
		typ, field, _ := strings.Cut(c.graphql, ".")
		def := map[string]*gqlast.Definition{"Query": schema.Query, "Mutation": schema.Mutation}[typ]
		if def == nil || def.Fields.ForName(field) == nil {
			t.Errorf("%s: the schema has no field %s", c.route, c.graphql)
			continue
		}
		handler := restSrc.funcs["API."+c.rest]
		if !handler[c.calls] && !restSrc.registrations[rt.Registered][c.calls] {
			t.Errorf("%s: REST's %s (registered at %s) does not call %s", c.route, c.rest, rt.Registered, c.calls)
		}
		resolver, ok := graphSrc.funcs[resolverOf(c.graphql)]
		if !ok {
			t.Errorf("%s: GraphQL has no resolver %s", c.route, resolverOf(c.graphql))
		} else if !resolver[c.calls] {
			t.Errorf("%s: the resolver of %s does not call %s", c.route, c.graphql, c.calls)
		}
		if c.idempotent && (!handler["idempotent"] || !resolver["idempotent"]) {
			t.Errorf("%s: REST's %s and the resolver of %s must both run the call under idempotent", c.route, c.rest, c.graphql)
		}
	}
	for door, src := range map[string]source{"REST": restSrc, "GraphQL": graphSrc} {
		if !src.funcs["idempotent"]["checkout.Idempotently"] {
			t.Errorf("%s's idempotent does not run the call under checkout.Idempotently", door)
		}
	}
}
