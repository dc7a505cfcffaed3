package rest_test

import "testing"

func guest() map[string]any {
	return map[string]any{"first_name": "Ada", "last_name": "Lovelace", "email_address": "ada@example.com", "accepts_marketing": true}
}

func usAddress() map[string]any {
	return map[string]any{"first_name": "Ada", "last_name": "Lovelace", "address_line_1": "1 Main St", "city": "Albany",
		"country": "United States", "country_code": "US", "province": "New York", "province_code": "NY", "postal_code": "12207"}
}

func TestCreateGuestCustomerPutsTheCustomerOnTheOrder(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		d := storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/customer/guest", guest()).wantStatus(t, 200).data(t)
		c := d["customer"].(map[string]any)
		if c["email_address"] != "ada@example.com" || c["platform_id"] != nil || c["public_id"] == "" {
			t.Fatalf("customer %v", c)
		}
		state := d["application_state"].(map[string]any)
		if state["customer"].(map[string]any)["first_name"] != "Ada" {
			t.Fatalf("state customer %v", state["customer"])
		}
	})
}

func TestCreateCustomerWhenOneExistsIs422(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/customer/guest"
		storefront(t, a, jwt, "POST", path, guest()).wantStatus(t, 200)
		storefront(t, a, jwt, "POST", path, guest()).wantError(t, 422, "", "customer.already_exists")
		storefront(t, a, jwt, "DELETE", "/checkout/storefront/"+a.shop+"/"+id+"/customer", nil).wantStatus(t, 200)
		storefront(t, a, jwt, "POST", path, guest()).wantStatus(t, 200)
	})
}

func TestGuestCustomerNeedsNamesAndAValidEmail(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		body := guest()
		body["email_address"] = "not-an-email"
		e := storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/customer/guest", body).wantError(t, 422, "", "customer.invalid_customer_data")
		if e["details"].(map[string]any)["field"] != "email_address" {
			t.Fatalf("error does not name the field: %v", e)
		}
		storefront(t, a, jwt, "GET", "/checkout/storefront/"+a.shop+"/"+id+"/validate_email_address?email_address=x@", nil).wantStatus(t, 422)
		storefront(t, a, jwt, "GET", "/checkout/storefront/"+a.shop+"/"+id+"/validate_email_address?email_address=x@example.com", nil).wantStatus(t, 200)
	})
}

func TestUpdateCustomerKeepsPlatformIDAndPublicID(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, _, _ := initOrder(t, a)
		base := "/checkout/orders/" + a.shop + "/" + id
		body := guest()
		body["platform_id"] = "cust-42"
		created := a.do("POST", base+"/customer/authenticated", body).wantStatus(t, 200).data(t)["customer"].(map[string]any)
		upd := map[string]any{"first_name": "Augusta", "last_name": "King", "email_address": "augusta@example.com", "platform_id": "other", "public_id": "other"}
		c := a.do("PUT", base+"/customer", upd).wantStatus(t, 200).data(t)["customer"].(map[string]any)
		if c["first_name"] != "Augusta" || c["platform_id"] != "cust-42" || c["public_id"] != created["public_id"] {
			t.Fatalf("updated %v (created %v)", c, created)
		}
	})
}

func TestAuthenticatedCustomerNeedsPlatformID(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, _, _ := initOrder(t, a)
		a.do("POST", "/checkout/orders/"+a.shop+"/"+id+"/customer/authenticated", guest()).wantError(t, 422, "", "customer.invalid_customer_data")
	})
}

func TestSetShippingAddressOverwritesTheOneAddress(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/addresses/shipping"
		storefront(t, a, jwt, "POST", path, usAddress()).wantStatus(t, 200)
		second := usAddress()
		second["city"] = "Buffalo"
		d := storefront(t, a, jwt, "POST", path, second).wantStatus(t, 200).data(t)
		if d["address"].(map[string]any)["city"] != "Buffalo" {
			t.Fatalf("address %v", d["address"])
		}
		shipping := d["application_state"].(map[string]any)["addresses"].(map[string]any)["shipping"].(map[string]any)
		if shipping["city"] != "Buffalo" {
			t.Fatalf("state shipping %v", shipping)
		}
	})
}

func TestAddressWithUnknownCountryOrProvinceOrBadPostalCodeIs422(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/addresses/billing"
		for field, bad := range map[string]string{"country_code": "XX", "province_code": "ZZ", "postal_code": "ABCDE"} {
			body := usAddress()
			body[field] = bad
			e := storefront(t, a, jwt, "POST", path, body).wantError(t, 422, "", "address.invalid_address")
			d := e["details"].(map[string]any)
			if d["field"] != field || d["address_type"] != "billing" {
				t.Fatalf("%s: details %v", field, d)
			}
		}
	})
}

func TestUpdateShippingAddressCannotBlankCountryOrProvince(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, _, _ := initOrder(t, a)
		path := "/checkout/orders/" + a.shop + "/" + id + "/addresses/shipping"
		a.do("POST", path, usAddress()).wantStatus(t, 200)
		for _, field := range []string{"country", "province", "province_code"} {
			body := usAddress()
			body[field] = ""
			a.do("PUT", path, body).wantError(t, 422, "", "address.invalid_address")
		}
		body := usAddress()
		body["address_line_2"] = ""
		body["city"] = ""
		d := a.do("PUT", path, body).wantStatus(t, 200).data(t)
		if d["address"].(map[string]any)["city"] != "" {
			t.Fatalf("blank city kept a value: %v", d["address"])
		}
		got := a.do("GET", path, nil).wantStatus(t, 200).data(t)
		if got["address"].(map[string]any)["province_code"] != "NY" {
			t.Fatalf("get %v", got)
		}
	})
}

func TestValidateAddressChecksWithoutSettingTheAddress(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		q := "?first_name=Ada&last_name=Lovelace&address_line_1=1+Main+St&city=Albany&country=United+States&country_code=US&province=New+York&province_code=NY"
		storefront(t, a, jwt, "GET", base+"/validate_address"+q+"&postal_code=12207", nil).wantStatus(t, 200)
		e := storefront(t, a, jwt, "GET", base+"/validate_address"+q+"&postal_code=ABCDE&address_type=billing", nil).wantError(t, 422, "", "address.invalid_address")
		if e["field"] != "postal_code" || e["address_type"] != "billing" {
			t.Fatalf("error %v", e)
		}
		storefront(t, a, jwt, "GET", base+"/validate_address"+q+"&address_type=home", nil).wantError(t, 422, "", "address.invalid_address_type")
		state := stateOf(t, storefront(t, a, jwt, "GET", base+"/refresh", nil).wantStatus(t, 200))
		if addr, ok := state["addresses"].(map[string]any)["shipping"].([]any); !ok || len(addr) != 0 {
			t.Fatalf("validate set an address: %v", state["addresses"])
		}
	})
}

func TestPostalCodeIsRequiredWhereTheCountryNeedsOneAndCheckedOnlyWhenGiven(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/addresses/shipping"
		for _, country := range []struct{ code, province string }{{"US", "NY"}, {"CA", "ON"}, {"MX", "CMX"}} {
			addr := usAddress()
			addr["country"], addr["country_code"], addr["province"], addr["province_code"] = "", country.code, "", country.province
			delete(addr, "postal_code")
			e := storefront(t, a, jwt, "POST", path, addr).wantError(t, 422, "", "address.invalid_address")
			if e["field"] != "postal_code" {
				t.Fatalf("%s without a postal code: %v", country.code, e)
			}
		}
		// Ireland's addresses need none; one that is given is checked on its format only.
		irish := map[string]any{"first_name": "Ada", "last_name": "Lovelace", "address_line_1": "1 Main St", "city": "Dublin", "country_code": "IE", "province_code": "D"}
		storefront(t, a, jwt, "POST", path, irish).wantStatus(t, 200)
		us := usAddress()
		us["postal_code"] = "1220"
		storefront(t, a, jwt, "POST", path, us).wantError(t, 422, "", "address.invalid_address")
		us["postal_code"] = "12207-1234"
		storefront(t, a, jwt, "POST", path, us).wantStatus(t, 200)
	})
}

func TestUpdateGuestCustomerCannotChangeWhatInitSupplied(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		body := cart()
		body["customer"] = guest()
		d := a.do("POST", "/checkout/orders/"+a.shop+"/init", body).wantStatus(t, 200).data(t)
		id, jwt := d["public_order_id"].(string), d["jwt_token"].(string)
		if c := stateOf(t, a.doAs(jwt, "GET", "/checkout/storefront/"+a.shop+"/"+id+"/refresh", nil).wantStatus(t, 200))["customer"].(map[string]any); c["email_address"] != "ada@example.com" {
			t.Fatalf("init's customer %v", c)
		}
		path := "/checkout/storefront/" + a.shop + "/" + id + "/customer"
		changed := guest()
		changed["first_name"], changed["email_address"] = "Augusta", "augusta@example.com"
		e := storefront(t, a, jwt, "PUT", path+"/guest", changed).wantError(t, 422, "", "customer.supplied_at_init")
		if fields := e["details"].(map[string]any)["fields"].([]any); len(fields) != 2 || fields[0] != "first_name" || fields[1] != "email_address" {
			t.Fatalf("refusal %v", e)
		}
		// The marketing choice was the shopper's to change; Update Customer may change the rest.
		same := guest()
		same["accepts_marketing"] = false
		if c := storefront(t, a, jwt, "PUT", path+"/guest", same).wantStatus(t, 200).data(t)["customer"].(map[string]any); c["accepts_marketing"] != false {
			t.Fatalf("customer %v", c)
		}
		if c := storefront(t, a, jwt, "PUT", path, changed).wantStatus(t, 200).data(t)["customer"].(map[string]any); c["first_name"] != "Augusta" {
			t.Fatalf("customer after Update Customer %v", c)
		}

		// A guest who joined after init is the shopper's to change either way.
		id2, jwt2, _ := initOrder(t, a)
		path2 := "/checkout/storefront/" + a.shop + "/" + id2 + "/customer"
		storefront(t, a, jwt2, "POST", path2+"/guest", guest()).wantStatus(t, 200)
		if c := storefront(t, a, jwt2, "PUT", path2+"/guest", changed).wantStatus(t, 200).data(t)["customer"].(map[string]any); c["first_name"] != "Augusta" {
			t.Fatalf("customer %v", c)
		}
	})
}

func TestGetCustomerAnswersTheOrdersCustomer(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		backend := "/checkout/orders/" + a.shop + "/" + id + "/customer"
		// The spec's empty customer is an empty list, as in the application state.
		if c, ok := a.do("GET", backend, nil).wantStatus(t, 200).data(t)["customer"].([]any); !ok || len(c) != 0 {
			t.Fatalf("customer of an order without one: %v", c)
		}
		storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/customer/guest", guest()).wantStatus(t, 200)
		c := a.do("GET", backend, nil).wantStatus(t, 200).data(t)["customer"].(map[string]any)
		if c["first_name"] != "Ada" || c["email_address"] != "ada@example.com" || c["public_id"] == "" {
			t.Fatalf("customer %v", c)
		}
		a.do("GET", "/checkout/orders/"+a.shop+"/nope/customer", nil).wantError(t, 404, "", "order.not_found")
	})
}
