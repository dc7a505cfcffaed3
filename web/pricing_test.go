package web_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/service/admin"
)

func TestProductsAreCreatedTheirVariantsEditedAndDeleted(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/products")
		c.fill(map[string]string{"platform_id": "p-1", "title": "Mug", "variant_platform_id": "v-1", "sku": "MUG-1", "price": "12.5x"})
		c.submitAndWait("#submit", "#price-error")
		c.fill(map[string]string{"price": "12.50", "inventory_quantity": "5"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#products", "MUG-1")
		c.wantText("#products", "$12.50")
		c.fill(map[string]string{"platform_id": "p-2", "title": "Cup", "variant_platform_id": "v-1", "price": "3.00"})
		c.submitAndWait("#submit", "#platform_id-error")
		c.wantText("#platform_id-error", "platform_id exists")

		c.submitAndWait("#products a.edit", "#variant-form")
		c.fill(map[string]string{"price": "-1"})
		c.submitAndWait("#submit", "#price-error")
		c.fill(map[string]string{"price": "14.00", "sku": "MUG-2"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#products", "$14.00")
		c.wantText("#products", "MUG-2")

		c.submitAndWait("#products a.delete", "#confirm-question")
		c.wantText("#confirm-question", "Mug")
		c.submitAndWait("#confirm", "#flash")
		c.wantText("main", "No products yet")
		if n, err := c.svc.Client().Variant.Query().Count(context.Background()); err != nil || n != 0 {
			t.Fatalf("%d variants left after the product was deleted (%v)", n, err)
		}
	})
}

func TestShippingZonesAreCreated(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/shipping-zones")
		c.wantText("#zones", "Everywhere")
		c.fill(map[string]string{"name": "Canada", "country_codes": "CA, XX", "rate_name": "Express", "rate_code": "express", "rate_amount": "20.00"})
		c.submitAndWait("#submit", "#country_codes-error")
		c.wantText("#country_codes-error", "XX is not an ISO 3166 country code")
		c.fill(map[string]string{"country_codes": "CA"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#zones", "Express (express, flat): $20.00")
	})
}

func TestTheShopsAddressRequirementsAreSaved(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/shipping-zones")
		c.run(clickAndWait("#require_business_name"))
		c.run(clickAndWait("#require_phone_number"))
		c.submitAndWait("#save-address-requirements", "#flash")
		c.wantText("#flash", "Address requirements saved")
		if sh := c.shopEntity(); !sh.RequireBusinessName || !sh.RequirePhoneNumber {
			t.Fatalf("saved business name %v, phone number %v", sh.RequireBusinessName, sh.RequirePhoneNumber)
		}
	})
}

func TestTaxZonesAreCreatedEditedAndDeleted(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/tax-zones")
		c.fill(map[string]string{"name": "NY sales tax", "country_code": "US", "province_code": "ZZ", "rate": "8.875"})
		c.submitAndWait("#submit", "#province_code-error")
		c.wantText("#province_code-error", "not a subdivision of US")
		c.fill(map[string]string{"province_code": "NY"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#tax-zones", "8.875%")
		c.submitAndWait("#tax-zones a.edit", "#tax-form")
		c.fill(map[string]string{"rate": "200"})
		c.submitAndWait("#submit", "#rate-error")
		c.fill(map[string]string{"rate": "4"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#tax-zones", "4%")
		c.run(clickAndWait("#prices_include_tax"))
		c.submitAndWait("#save-prices", "#flash")
		if !c.shopEntity().PricesIncludeTax {
			t.Fatal("prices_include_tax was not saved")
		}
		c.submitAndWait("#tax-zones a.delete", "#confirm-question")
		c.submitAndWait("#confirm", "#flash")
		c.wantText("main", "No tax zones")
	})
}

func TestDiscountCodesAreCreatedEditedAndDeleted(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/discount-codes")
		c.fill(map[string]string{"code": "TEN", "kind": "percentage", "value": "0"})
		c.submitAndWait("#submit", "#value-error")
		c.wantText("#value-error", "basis points")
		c.fill(map[string]string{"code": "ten", "kind": "percentage", "value": "10", "text": "Ten off"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#discount-codes", "TEN")
		c.submitAndWait("#discount-codes a.edit", "#discount-form")
		if got := c.value("#value"); got != "10" {
			t.Fatalf("the edit form shows value %q, want 10", got)
		}
		c.fill(map[string]string{"starts_at": "2026-12-31", "ends_at": "2026-12-01"})
		c.submitAndWait("#submit", "#ends_at-error")
		c.fill(map[string]string{"kind": "fixed_amount", "value": "5.00", "ends_at": ""})
		c.submitAndWait("#submit", "#flash")
		codes, err := c.svc.Admin.DiscountCodes(context.Background(), c.shopEntity(), admin.PageRequest{})
		if err != nil || len(codes.Items) != 1 || codes.Items[0].Value != 500 || codes.Items[0].StartsAt == nil {
			t.Fatalf("codes after edit: %+v %v", codes.Items, err)
		}
		c.submitAndWait("#discount-codes a.delete", "#confirm-question")
		c.submitAndWait("#confirm", "#flash")
		c.wantText("main", "No discount codes yet")
	})
}
