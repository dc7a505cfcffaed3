package rest_test

import "testing"

func TestBusinessNameAndPhoneNumberAreRequiredWhenTheShopsSettingsRequireThem(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		settings := "/checkout/shop/" + a.shop + "/settings"
		if s := a.do("GET", settings, nil).wantStatus(t, 200).data(t)["settings"].(map[string]any); s["require_business_name"] != false || s["require_phone_number"] != false {
			t.Fatalf("settings of a new shop %v", s)
		}
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/addresses/shipping", usAddress()).wantStatus(t, 200)

		s := a.do("PATCH", settings, map[string]any{"require_business_name": true, "require_phone_number": true}).wantStatus(t, 200).data(t)["settings"].(map[string]any)
		if s["require_business_name"] != true || s["require_phone_number"] != true || s["gift_cards_enabled"] != false {
			t.Fatalf("settings after the change %v", s)
		}
		for _, kind := range []string{"shipping", "billing"} {
			e := storefront(t, a, jwt, "POST", base+"/addresses/"+kind, usAddress()).wantError(t, 422, "", "address.invalid_address")
			if e["field"] != "business_name" && e["field"] != "phone_number" {
				t.Fatalf("%s address without business name and phone: %v", kind, e)
			}
			addr := usAddress()
			addr["business_name"] = "Analytical Engines"
			e = storefront(t, a, jwt, "POST", base+"/addresses/"+kind, addr).wantError(t, 422, "", "address.invalid_address")
			if e["field"] != "phone_number" {
				t.Fatalf("%s address without phone: %v", kind, e)
			}
			addr["phone_number"] = "+1 518 555 0100"
			storefront(t, a, jwt, "POST", base+"/addresses/"+kind, addr).wantStatus(t, 200)
		}
		q := "?first_name=Ada&last_name=Lovelace&address_line_1=1+Main+St&city=Albany&country_code=US&province_code=NY&postal_code=12207"
		storefront(t, a, jwt, "GET", base+"/validate_address"+q, nil).wantError(t, 422, "", "address.invalid_address")
		// Estimates need neither.
		storefront(t, a, jwt, "POST", base+"/taxes/estimate", map[string]any{"country_code": "US", "province_code": "NY"}).wantStatus(t, 200)

		_, _, d := initOrder(t, a)
		process := d["initial_data"].(map[string]any)["general_settings"].(map[string]any)["checkout_process"].(map[string]any)
		if process["phone_number_required"] != true || process["company_name_option"] != "required" {
			t.Fatalf("initial data's checkout_process %v", process)
		}
		// Leaving a setting out keeps it.
		s = a.do("PATCH", settings, map[string]any{"require_phone_number": false}).wantStatus(t, 200).data(t)["settings"].(map[string]any)
		if s["require_business_name"] != true || s["require_phone_number"] != false {
			t.Fatalf("settings after a partial change %v", s)
		}
		a.do("PATCH", settings, map[string]any{"require_phone_number": "yes"}).wantError(t, 422, "", "request.invalid_field_type")
	})
}
