package graph_test

import (
	"context"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/problem"
)

// The checks and estimates that change nothing: each the REST call's counterpart, with the same
// service method, rules and errors.

// texas is a complete shipping address in Texas.
var texas = map[string]any{"firstName": "Ada", "addressLine1": "1 Main St", "city": "Austin", "countryCode": "US", "provinceCode": "TX", "postalCode": "78701"}

const validateAddress = `query($id: String!, $address: AddressInput!, $type: String) {
	validateAddress(publicOrderId: $id, input: $address, addressType: $type) }`

func TestValidateAddressRefusesABadAddressWithTheTypeRESTAnswersAndStoresNothing(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		if get(g.ok(jwtToken, validateAddress, map[string]any{"id": id, "address": texas}), "validateAddress") != true {
			t.Fatal("a good address is not valid")
		}
		bad := map[string]any{"countryCode": "US", "provinceCode": "ZZ", "city": "Austin", "postalCode": "78701"}
		for _, typ := range []any{nil, "shipping", "billing"} {
			r := g.do(jwtToken, validateAddress, map[string]any{"id": id, "address": bad, "type": typ})
			wantCode(t, r, problem.CodeValidation, "address.invalid_address")
			want := "shipping"
			if typ != nil {
				want = typ.(string)
			}
			if get(r.Errors[0], "extensions", "details", "address_type") != want || get(r.Errors[0], "extensions", "details", "field") != "province_code" {
				t.Fatalf("%v: extensions %v", typ, r.Errors[0]["extensions"])
			}
		}
		wantCode(t, g.do(jwtToken, validateAddress, map[string]any{"id": id, "address": texas, "type": "home"}),
			problem.CodeValidation, "address.invalid_address_type")
		// The shop's own requirements are the rules too.
		g.ok(g.token, `mutation { updateShopSettings(input: {requireBusinessName: true}) { requireBusinessName } }`, nil)
		r := g.do(jwtToken, validateAddress, map[string]any{"id": id, "address": texas, "type": "billing"})
		wantCode(t, r, problem.CodeValidation, "address.invalid_address")
		if get(r.Errors[0], "extensions", "details", "field") != "business_name" || get(r.Errors[0], "extensions", "details", "address_type") != "billing" {
			t.Fatalf("extensions %v", r.Errors[0]["extensions"])
		}
		st := get(g.ok(jwtToken, `query($id: String!) { order(publicOrderId: $id) { ...view } }`+orderViewFragment, map[string]any{"id": id}), "order", "applicationState")
		if get(st, "addresses", "shipping") != nil || get(st, "addresses", "billing") != nil {
			t.Fatalf("validating stored an address: %v", get(st, "addresses"))
		}
		sibling, _ := g.init(g.token)
		wantCode(t, g.do(jwtToken, validateAddress, map[string]any{"id": sibling, "address": texas}), problem.CodeUnauthorized, "auth.unauthorized")
	})
}

func TestValidateEmailAddressRefusesAMalformedAddressWithTheTypeRESTAnswers(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		q := `query($id: String!, $email: String!) { validateEmailAddress(publicOrderId: $id, emailAddress: $email) }`
		if get(g.ok(jwtToken, q, map[string]any{"id": id, "email": "ada@example.com"}), "validateEmailAddress") != true {
			t.Fatal("a good email address is not valid")
		}
		for _, bad := range []string{"not-an-email", "ada@localhost", "", strings.Repeat("a", 250) + "@example.com"} {
			r := g.do(jwtToken, q, map[string]any{"id": id, "email": bad})
			if len(r.Errors) == 0 || get(r.Errors[0], "extensions", "details", "field") != "email_address" || get(r.Errors[0], "extensions", "status") != 422.0 {
				t.Fatalf("%q: %v", bad, r)
			}
		}
		wantCode(t, g.do(jwtToken, q, map[string]any{"id": id, "email": "not-an-email"}), problem.CodeValidation, "customer.invalid_email_address")
	})
}

func TestValidateDiscountCodeAnswersTheCodeWithoutApplyingIt(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		g.ok(g.token, `mutation { createDiscountCode(input: {code: "TENOFF", text: "Ten off", kind: percentage, value: 1000, minimumSubtotal: 2000}) { id } }`, nil)
		id, jwtToken := g.init(g.token)
		q := `query($id: String!, $code: String!) { validateDiscountCode(publicOrderId: $id, code: $code) { code text kind view { ...view } } }` + orderViewFragment
		check := get(g.ok(jwtToken, q, map[string]any{"id": id, "code": "tenoff"}), "validateDiscountCode")
		if get(check, "code") != "TENOFF" || get(check, "text") != "Ten off" || get(check, "kind") != "percentage" {
			t.Fatalf("check %v", check)
		}
		if st := get(check, "view", "applicationState"); len(get(st, "discounts").([]any)) != 0 || get(st, "orderTotal") != 3000.0 {
			t.Fatalf("validating applied the code: %v", st)
		}
		wantCode(t, g.do(jwtToken, q, map[string]any{"id": id, "code": "NOPE"}), problem.CodeValidation, "discount.invalid_code")
		g.ok(jwtToken, `mutation($id: String!) { updateLineItemQuantity(publicOrderId: $id, lineItemKey: "mug", quantity: 1) { publicOrderID } }`, map[string]any{"id": id})
		wantCode(t, g.do(jwtToken, q, map[string]any{"id": id, "code": "TENOFF"}), problem.CodeValidation, "discount.minimum_not_met")
	})
}

func TestCheckInventoryReportsTheVariantsTheCatalogCannotCover(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		ctx := context.Background()
		sh, err := g.svc.Shops.ShopByIdentifier(ctx, "shop-a")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.svc.Catalog.CreateProduct(ctx, sh, catalog.ProductInput{PlatformID: "cap", Title: "Cap",
			Variants: []catalog.VariantInput{{PlatformID: "cap-red", SKU: "CAP-R", Price: 1200, InventoryTracked: true, InventoryQuantity: 1}}}); err != nil {
			t.Fatal(err)
		}
		init := g.ok(g.token, initOrder, map[string]any{"in": map[string]any{"cartItems": []any{
			map[string]any{"platformID": "mug-white", "quantity": 5, "lineItemKey": "mug"},
			map[string]any{"platformID": "cap-red", "quantity": 1, "lineItemKey": "cap-1"},
			map[string]any{"platformID": "cap-red", "quantity": 1, "lineItemKey": "cap-2"},
		}}})
		id, jwtToken := get(init, "initOrder", "publicOrderID"), get(init, "initOrder", "jwtToken").(string)
		q := `query($id: String!, $stage: String!) { checkInventory(publicOrderId: $id, stage: $stage) {
			stage result reason failedItems { platformVariantID availableQuantity requestedQuantity lineItemKeys } view { applicationState { orderTotal } } } }`
		check := get(g.ok(jwtToken, q, map[string]any{"id": id, "stage": "final"}), "checkInventory")
		short := get(check, "failedItems", 0)
		if get(check, "stage") != "final" || get(check, "result") != "fail" || get(check, "reason") != "insufficient_stock" || len(get(check, "failedItems").([]any)) != 1 ||
			get(short, "platformVariantID") != "cap-red" || get(short, "availableQuantity") != 1.0 || get(short, "requestedQuantity") != 2.0 ||
			strings.Join([]string{get(short, "lineItemKeys", 0).(string), get(short, "lineItemKeys", 1).(string)}, ",") != "cap-1,cap-2" {
			t.Fatalf("check %v", check)
		}
		if get(check, "view", "applicationState", "orderTotal") != 9900.0 {
			t.Fatalf("view %v", get(check, "view"))
		}
		g.ok(jwtToken, `mutation($id: String!) { deleteLineItem(publicOrderId: $id, lineItemKey: "cap-2") { publicOrderID } }`, map[string]any{"id": id})
		check = get(g.ok(jwtToken, q, map[string]any{"id": id, "stage": "initial"}), "checkInventory")
		if get(check, "result") != "pass" || get(check, "reason") != "" || len(get(check, "failedItems").([]any)) != 0 {
			t.Fatalf("check with stock for every line %v", check)
		}
		wantCode(t, g.do(jwtToken, q, map[string]any{"id": id, "stage": "later"}), problem.CodeValidation, "inventory.invalid_stage")
	})
}

func TestEstimateShippingLinesAnswersTheLinesOfAnAddressWithoutSettingIt(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		q := `query($id: String!, $address: AddressInput!) { estimateShippingLines(publicOrderId: $id, input: $address) {
			shippingLines { id code description amount } view { ...view } } }` + orderViewFragment
		est := get(g.ok(jwtToken, q, map[string]any{"id": id, "address": texas}), "estimateShippingLines")
		if len(get(est, "shippingLines").([]any)) != 1 || get(est, "shippingLines", 0, "code") != "standard" || get(est, "shippingLines", 0, "amount") != 1000.0 ||
			get(est, "shippingLines", 0, "id") == "" {
			t.Fatalf("estimate %v", est)
		}
		if st := get(est, "view", "applicationState"); get(st, "addresses", "shipping") != nil || len(get(st, "shipping", "availableShippingLines").([]any)) != 0 {
			t.Fatalf("estimating set the address: %v", st)
		}
		wantCode(t, g.do(jwtToken, q, map[string]any{"id": id, "address": map[string]any{"countryCode": "ZZ"}}), problem.CodeValidation, "address.invalid_address")
	})
}

func TestEstimateTaxesAnswersTheTaxesOfAnAddressWithoutChangingTheOrder(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		g.ok(g.token, `mutation { createTaxZone(input: {name: "TX sales tax", countryCode: "US", provinceCode: "TX", ratePpm: 62500}) { id } }`, nil)
		id, jwtToken := g.init(g.token)
		q := `query($id: String!, $address: AddressInput!) { estimateTaxes(publicOrderId: $id, input: $address) {
			address { countryCode provinceCode } taxes { name value isIncluded } taxTotal estimatedTotal view { ...view } } }` + orderViewFragment
		est := get(g.ok(jwtToken, q, map[string]any{"id": id, "address": texas}), "estimateTaxes")
		tax, _ := get(est, "taxTotal").(float64)
		if get(est, "address", "countryCode") != "US" || get(est, "address", "provinceCode") != "TX" || tax <= 0 ||
			get(est, "taxes", 0, "value") != tax || get(est, "estimatedTotal") != 3000+tax {
			t.Fatalf("estimate %v", est)
		}
		if st := get(est, "view", "applicationState"); len(get(st, "taxes").([]any)) != 0 || get(st, "orderTotal") != 3000.0 {
			t.Fatalf("estimating taxed the order: %v", st)
		}
		elsewhere := get(g.ok(jwtToken, q, map[string]any{"id": id, "address": map[string]any{"countryCode": "US", "provinceCode": "NY"}}), "estimateTaxes")
		if get(elsewhere, "taxTotal") != 0.0 || get(elsewhere, "estimatedTotal") != 3000.0 {
			t.Fatalf("estimate outside the zone %v", elsewhere)
		}
		wantCode(t, g.do(jwtToken, q, map[string]any{"id": id, "address": map[string]any{"countryCode": "ZZ"}}), problem.CodeValidation, "address.invalid_address")
	})
}
