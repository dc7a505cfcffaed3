package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
)

// The hostile-input suite: every REST family gets malformed requests (wrong JSON types,
// missing fields, huge and deeply nested bodies, overflowing numbers, invalid UTF-8, paths
// that are not canonical, bodies that are not sent as JSON), and each must be answered in the
// error envelope, never with a 5xx, and change nothing in the database. Rules other than the
// shape of a request (text maxima, prices, outbound URLs) are tested where they live.

// hostileEndpoint is one route and the malformed bodies that are its own. In path, {shop},
// {order} and the other braces are filled from the fixture.
type hostileEndpoint struct {
	family string
	method string
	path   string
	// jwt: called with the order's JWT (storefront); else with the shop's access token.
	jwt bool
	// decodes: the route reads a JSON body, so every malformed body is tried on it.
	decodes bool
	bad     []badBody
}

// badBody is a body of the right JSON shape overall but wrong in one field: a wrong type, a
// number that fits no field, a required field missing.
type badBody struct {
	body   string
	status int
	typ    string
}

// wrongType is a field of the wrong JSON type, or a number out of its field's range.
func wrongType(body string) badBody {
	return badBody{body: body, status: 422, typ: "request.invalid_field_type"}
}

// missing is a body without a field the route needs.
func missing(body string) badBody { return badBody{body: body, status: 422} }

var hostileEndpoints = []hostileEndpoint{
	// Store configuration.
	{family: "cors", method: "GET", path: "/checkout/shop/{shop}/cors"},
	{family: "cors", method: "POST", path: "/checkout/shop/{shop}/cors", decodes: true, bad: []badBody{
		wrongType(`{"domain":5}`), wrongType(`{"domain":["https://a.example.com"]}`), missing(`{}`), missing(`{"domain":null}`)}},
	{family: "cors", method: "DELETE", path: "/checkout/shop/{shop}/cors/{domain}"},
	{family: "life_elements", method: "POST", path: "/checkout/shop/{shop}/life_elements", decodes: true, bad: []badBody{
		wrongType(`{"location":"customer_info","input_type":"text","input_required":"yes","meta_data_field":"f","order_asc":1}`),
		wrongType(`{"location":"customer_info","input_type":"text","input_required":false,"meta_data_field":"f","order_asc":1e400}`),
		wrongType(`{"location":"customer_info","input_type":"text","input_required":false,"meta_data_field":"f","order_asc":9223372036854775808}`),
		wrongType(`{"location":"customer_info","input_type":"text","input_required":false,"meta_data_field":"f","order_asc":-1e30}`),
		wrongType(`{"location":{"x":1},"input_type":"text","input_required":false,"meta_data_field":"f","order_asc":1}`),
		missing(`{}`), missing(`{"location":"customer_info"}`)}},
	{family: "life_elements", method: "PATCH", path: "/checkout/shop/{shop}/life_elements/{element}", decodes: true, bad: []badBody{
		wrongType(`{"order_asc":"first"}`), wrongType(`{"order_asc":1.5}`), wrongType(`{"input_required":1}`), wrongType(`{"input_label":[]}`)}},
	{family: "life_elements", method: "DELETE", path: "/checkout/shop/{shop}/life_elements/{element}"},
	{family: "external_payment_gateways", method: "POST", path: "/checkout/shop/{shop}/external_payment_gateways", decodes: true, bad: []badBody{
		wrongType(`{"name":"G","base_url":"https://pay.example.com","location":"payment_gateway","provider_id":"p","currency":"USD","is_test":"true"}`),
		wrongType(`{"name":"G","base_url":"https://pay.example.com","location":"payment_gateway","provider_id":"p","currency":"USD","http_headers":{"k":"v"}}`),
		wrongType(`{"name":"G","base_url":"https://pay.example.com","location":"payment_gateway","provider_id":"p","currency":"USD","http_headers":[{"key":1,"value":2}]}`),
		wrongType(`{"name":42,"base_url":"https://pay.example.com","location":"payment_gateway","provider_id":"p","currency":"USD"}`),
		missing(`{}`), missing(`{"name":"G"}`)}},
	{family: "external_payment_gateways", method: "PATCH", path: "/checkout/shop/{shop}/external_payment_gateways/{gateway}", decodes: true, bad: []badBody{
		wrongType(`{"partial_capture":"no"}`), wrongType(`{"api_token":7}`), missing(`{}`)}},
	{family: "external_payment_gateways", method: "DELETE", path: "/checkout/shop/{shop}/external_payment_gateways/{gateway}"},
	{family: "integration/config", method: "POST", path: "/checkout/shop/{shop}/integration/config", decodes: true, bad: []badBody{
		wrongType(`{"shared_secret":12345678}`), wrongType(`{"shared_secret":true}`), missing(`{}`), missing(`{"shared_secret":""}`)}},
	{family: "overrides", method: "POST", path: "/checkout/shop/{shop}/overrides", decodes: true, bad: []badBody{
		wrongType(`{"override_type":1,"url":"https://o.example.com","shared_secret":"s"}`),
		wrongType(`{"override_type":"tax","url":{"href":"https://o.example.com"},"shared_secret":"s"}`),
		missing(`{}`), missing(`{"override_type":"tax"}`)}},
	{family: "overrides", method: "PATCH", path: "/checkout/shop/{shop}/overrides/{override}", decodes: true, bad: []badBody{
		wrongType(`{"url":false}`), wrongType(`{"shared_secret":[]}`)}},
	{family: "overrides", method: "DELETE", path: "/checkout/shop/{shop}/overrides/{override}"},
	{family: "rsa_config", method: "POST", path: "/checkout/shop/{shop}/rsa_config", decodes: true, bad: []badBody{
		wrongType(`{"url":1,"shared_secret":"s"}`), wrongType(`{"url":"https://r.example.com","shared_secret":{}}`), missing(`{}`), missing(`{"url":"https://r.example.com"}`)}},
	{family: "rsa_config", method: "PATCH", path: "/checkout/shop/{shop}/rsa_config", decodes: true, bad: []badBody{
		wrongType(`{"url":[]}`), missing(`{"url":"https://r.example.com"}`)}},
	{family: "webhooks", method: "GET", path: "/checkout/shop/{shop}/webhooks"},
	{family: "webhooks", method: "POST", path: "/checkout/shop/{shop}/webhooks", decodes: true, bad: []badBody{
		wrongType(`{"webhook_topic_id":"1","callback_url":"https://h.example.com"}`),
		wrongType(`{"webhook_topic_id":1e400,"callback_url":"https://h.example.com"}`),
		wrongType(`{"webhook_topic_id":9223372036854775808,"callback_url":"https://h.example.com"}`),
		wrongType(`{"webhook_topic_id":1,"callback_url":["https://h.example.com"]}`),
		missing(`{}`), missing(`{"webhook_topic_id":1}`), missing(`{"webhook_topic_id":-1e30}`)}},
	{family: "webhooks", method: "PATCH", path: "/checkout/shop/{shop}/webhooks/{webhook}", decodes: true, bad: []badBody{
		wrongType(`{"callback_url":5}`), missing(`{}`)}},
	{family: "webhooks", method: "DELETE", path: "/checkout/shop/{shop}/webhooks/{webhook}"},
	{family: "flows", method: "GET", path: "/checkout/shop/{shop}/flows"},
	{family: "flows", method: "POST", path: "/checkout/shop/{shop}/flows", decodes: true, bad: []badBody{
		wrongType(`{"flow_id":1,"flow_name":"F","flow_type":"custom"}`), wrongType(`{"flow_id":"f","flow_name":null,"flow_type":true}`),
		missing(`{}`), missing(`{"flow_id":"f"}`)}},
	{family: "flows", method: "PUT", path: "/checkout/shop/{shop}/flows/{flow}"},
	{family: "gift_card", method: "GET", path: "/checkout/shop/{shop}/gift_card"},

	// Orders, backend.
	{family: "init", method: "POST", path: "/checkout/orders/{shop}/init", decodes: true, bad: []badBody{
		wrongType(`{"cart_items":{"sku":"A","quantity":1,"line_item_key":"k","title":"A","price":1}}`),
		wrongType(`{"cart_items":[{"sku":"A","quantity":"1","line_item_key":"k","title":"A","price":1}]}`),
		wrongType(`{"cart_items":[{"sku":"A","quantity":1e400,"line_item_key":"k","title":"A","price":1}]}`),
		wrongType(`{"cart_items":[{"sku":"A","quantity":1,"line_item_key":"k","title":"A","price":9223372036854775808}]}`),
		wrongType(`{"cart_items":[{"sku":"A","quantity":1,"line_item_key":"k","title":"A","price":-1e30}]}`),
		wrongType(`{"cart_items":[{"sku":"A","quantity":1.5,"line_item_key":"k","title":"A","price":1}]}`),
		wrongType(`{"cart_items":[{"sku":"A","quantity":1,"line_item_key":"k","title":"A","price":1,"line_item_properties":{"a":1}}]}`),
		wrongType(`{"cart_items":[],"order_meta_data":[]}`),
		missing(`{"cart_items":[{}]}`)}},
	{family: "resume", method: "POST", path: "/checkout/orders/{shop}/resume", decodes: true, bad: []badBody{
		wrongType(`{"public_order_id":1}`), {body: `{}`, status: 422, typ: "order.invalid_resume"}}},
	{family: "addresses", method: "POST", path: "/checkout/orders/{shop}/{order}/addresses/shipping", decodes: true, bad: []badBody{
		wrongType(`{"first_name":"A","last_name":"B","address_line_1":1,"city":"Albany","country_code":"US","province_code":"NY","postal_code":"12207"}`),
		wrongType(`{"first_name":"A","last_name":"B","address_line_1":"1 Main","city":"Albany","country_code":"US","province_code":"NY","postal_code":12207}`),
		missing(`{}`), missing(`{"first_name":"A"}`)}},
	{family: "addresses", method: "PUT", path: "/checkout/orders/{shop}/{order}/addresses/shipping", decodes: true, bad: []badBody{
		wrongType(`{"country_code":["US"]}`), missing(`{}`)}},
	{family: "customer", method: "POST", path: "/checkout/orders/{shop}/{order}/customer/authenticated", decodes: true, bad: []badBody{
		wrongType(`{"platform_id":1,"first_name":"A","last_name":"B","email_address":"a@example.com"}`),
		wrongType(`{"platform_id":"p","first_name":"A","last_name":"B","email_address":"a@example.com","accepts_marketing":"yes"}`),
		missing(`{}`)}},
	{family: "customer", method: "PUT", path: "/checkout/orders/{shop}/{order}/customer", decodes: true, bad: []badBody{
		wrongType(`{"email_address":{"x":1}}`), missing(`{}`), missing(`{"email_address":""}`)}},
	{family: "line items", method: "PATCH", path: "/checkout/orders/{shop}/{order}/line_items", decodes: true, bad: []badBody{
		wrongType(`{"line_items":{"line_item_key":"k1","fulfilled_quantity":1}}`),
		wrongType(`{"line_items":[{"line_item_key":"k1","fulfilled_quantity":"1"}]}`),
		wrongType(`{"line_items":[{"line_item_key":"k1","fulfilled_quantity":1e400}]}`),
		wrongType(`{"line_items":[{"line_item_key":"k1","fulfilled_quantity":9223372036854775808}]}`),
		missing(`{}`), missing(`{"line_items":[{}]}`), missing(`{"line_items":[{"line_item_key":"nope","fulfilled_quantity":1}]}`)}},
	{family: "line items", method: "PATCH", path: "/checkout/orders/{shop}/{order}/line_items/k1", decodes: true, bad: []badBody{
		wrongType(`{"fulfilled_quantity":"2"}`), wrongType(`{"fulfilled_quantity":-1e30}`), wrongType(`{"fulfilled_quantity":[1]}`)}},
	{family: "line items", method: "PUT", path: "/checkout/orders/{shop}/{order}/items", decodes: true, bad: []badBody{
		wrongType(`{"line_item_key":"k1","quantity":"3"}`), wrongType(`{"line_item_key":"k1","quantity":1e400}`), missing(`{}`)}},
	{family: "payments", method: "POST", path: "/checkout/orders/{shop}/{order}/payments/auth/full", decodes: true},
	{family: "payments", method: "POST", path: "/checkout/orders/{shop}/{order}/payments/capture", decodes: true, bad: []badBody{
		wrongType(`{"amount":"100"}`), wrongType(`{"amount":1e400}`), wrongType(`{"amount":9223372036854775808}`), wrongType(`{"amount":1.5}`),
		wrongType(`{"amount":100,"reauth":"yes"}`), wrongType(`{"amount":100,"capture_data":[]}`)}},
	{family: "payments", method: "POST", path: "/checkout/orders/{shop}/{order}/payments/capture/full", decodes: true, bad: []badBody{
		wrongType(`{"reauth":0}`)}},
	{family: "payments", method: "POST", path: "/checkout/orders/{shop}/{order}/payments/capture/payment/none", decodes: true, bad: []badBody{
		wrongType(`{"amount":"1"}`)}},
	{family: "refunds", method: "POST", path: "/checkout/orders/{shop}/{order}/refunds", decodes: true, bad: []badBody{
		wrongType(`{"amount":"100","reason":"r"}`), wrongType(`{"amount":-1e30,"reason":"r"}`), wrongType(`{"amount":100,"reason":7}`),
		wrongType(`{"amount":100,"line_items":{"line_item_key":"k1","quantity":1}}`),
		wrongType(`{"amount":100,"line_items":[{"line_item_key":"k1","quantity":9223372036854775808}]}`),
		wrongType(`{"amount":100,"email_notification":"no"}`)}},
	{family: "refunds", method: "POST", path: "/checkout/orders/{shop}/{order}/refunds/full", decodes: true, bad: []badBody{
		wrongType(`{"reason":["r"]}`)}},
	{family: "refunds", method: "POST", path: "/checkout/orders/{shop}/{order}/refunds/payment/none", decodes: true, bad: []badBody{
		wrongType(`{"amount":true}`)}},
	{family: "cancel", method: "POST", path: "/checkout/orders/{shop}/{order}/cancel", decodes: true, bad: []badBody{
		wrongType(`{"reason":1}`), wrongType(`{"reason":"r","refund":"true"}`)}},
	{family: "taxes", method: "POST", path: "/checkout/orders/{shop}/{order}/taxes"},

	// Orders, storefront.
	{family: "storefront customer", method: "POST", path: "/checkout/storefront/{shop}/{order}/customer/guest", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"first_name":1,"last_name":"B","email_address":"a@example.com"}`),
		wrongType(`{"first_name":"A","last_name":"B","email_address":"a@example.com","accepts_marketing":"true"}`),
		missing(`{}`)}},
	{family: "storefront customer", method: "PUT", path: "/checkout/storefront/{shop}/{order}/customer", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"last_name":{}}`), missing(`{}`)}},
	{family: "storefront customer", method: "GET", path: "/checkout/storefront/{shop}/{order}/validate_email_address", jwt: true},
	{family: "storefront addresses", method: "POST", path: "/checkout/storefront/{shop}/{order}/addresses/billing", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"first_name":"A","last_name":"B","address_line_1":"1 Main","city":"Albany","country_code":1,"province_code":"NY","postal_code":"12207"}`),
		missing(`{}`)}},
	{family: "storefront addresses", method: "PUT", path: "/checkout/storefront/{shop}/{order}/addresses/shipping", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"city":false}`), missing(`{}`)}},
	{family: "storefront addresses", method: "GET", path: "/checkout/storefront/{shop}/{order}/validate_address", jwt: true},
	{family: "shipping_lines", method: "POST", path: "/checkout/storefront/{shop}/{order}/shipping_lines", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"code":1}`), missing(`{}`), missing(`{"index":"nope"}`), missing(`{"index":1e400}`), missing(`{"index":9223372036854775808}`), missing(`{"index":-1e30}`), missing(`{"index":{}}`)}},
	{family: "shipping_lines", method: "POST", path: "/checkout/storefront/{shop}/{order}/shipping_lines/estimate", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"country_code":1}`)}},
	{family: "storefront taxes", method: "POST", path: "/checkout/storefront/{shop}/{order}/taxes", jwt: true},
	{family: "storefront taxes", method: "POST", path: "/checkout/storefront/{shop}/{order}/taxes/estimate", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"country_code":["US"]}`)}},
	{family: "discounts", method: "POST", path: "/checkout/storefront/{shop}/{order}/discounts", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"code":10}`), missing(`{}`), missing(`{"code":""}`)}},
	{family: "discounts", method: "DELETE", path: "/checkout/storefront/{shop}/{order}/discounts", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"code":["A"]}`), missing(`{}`)}},
	{family: "items", method: "POST", path: "/checkout/storefront/{shop}/{order}/items", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"sku":"A","quantity":"1","line_item_key":"k9"}`), wrongType(`{"sku":"A","quantity":1e400,"line_item_key":"k9"}`),
		wrongType(`{"sku":"A","quantity":9223372036854775808,"line_item_key":"k9"}`), wrongType(`{"sku":"A","quantity":1,"line_item_key":["k9"]}`),
		missing(`{}`)}},
	{family: "items", method: "PUT", path: "/checkout/storefront/{shop}/{order}/items", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"line_item_key":"k1","quantity":-1e30}`), wrongType(`{"line_item_key":1,"quantity":1}`), missing(`{}`), missing(`{"line_item_key":"nope","quantity":1}`)}},
	{family: "items", method: "DELETE", path: "/checkout/storefront/{shop}/{order}/items", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"line_item_key":true}`), missing(`{}`), missing(`{"line_item_key":"nope"}`)}},
	{family: "storefront payments", method: "POST", path: "/checkout/storefront/{shop}/{order}/payments", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"gateway_public_id":"{gateway}","token":"t","amount":"100"}`),
		wrongType(`{"gateway_public_id":"{gateway}","token":"t","amount":1e400}`),
		wrongType(`{"gateway_public_id":"{gateway}","token":"t","amount":9223372036854775808}`),
		wrongType(`{"gateway_public_id":"{gateway}","token":"t","amount":-1e30}`),
		wrongType(`{"gateway_public_id":"{gateway}","token":"t","amount":100,"extra_payment_data":"x"}`),
		missing(`{}`), missing(`{"gateway_public_id":"{gateway}"}`)}},
	{family: "storefront payments", method: "PUT", path: "/checkout/storefront/{shop}/{order}/payments", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"id":1,"amount":1}`), missing(`{}`)}},
	{family: "storefront payments", method: "DELETE", path: "/checkout/storefront/{shop}/{order}/payments", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"id":[]}`), missing(`{}`)}},
	{family: "storefront payments", method: "DELETE", path: "/checkout/storefront/{shop}/{order}/payments/gift_card", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"id":{}}`), missing(`{}`)}},
	{family: "storefront payments", method: "POST", path: "/checkout/storefront/{shop}/{order}/payments/styles", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"css_rules":"body{}"}`)}},
	{family: "meta_data", method: "PATCH", path: "/checkout/storefront/{shop}/{order}/meta_data", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"note_attributes":{"a":1}}`), wrongType(`{"tags":"a,b"}`), wrongType(`{"tags":[1,2]}`), wrongType(`{"cart_parameters":[]}`), wrongType(`{"notes":1e400}`)}},
	{family: "batch", method: "POST", path: "/checkout/storefront/{shop}/{order}/batch", jwt: true, decodes: true, bad: []badBody{
		wrongType(`{"sub_requests":{"method":"GET","endpoint":"/refresh"}}`), wrongType(`{"sub_requests":[{"method":1,"endpoint":"/refresh"}]}`),
		wrongType(`{"sub_requests":[{"method":"GET","endpoint":["/refresh"]}]}`),
		missing(`{}`), missing(`{"sub_requests":[]}`)}},
	{family: "process_order", method: "POST", path: "/checkout/storefront/{shop}/{order}/process_order", jwt: true, decodes: true},
	{family: "log", method: "POST", path: "/checkout/storefront/{shop}/{order}/log", jwt: true, decodes: true},
	{family: "refresh", method: "GET", path: "/checkout/storefront/{shop}/{order}/refresh", jwt: true},
}

// hostileRequest is one malformed request and the answer it must get.
type hostileRequest struct {
	name        string
	method      string
	path        string
	contentType string
	body        []byte
	chunked     bool
	status      int
	typ         string
}

// hostileRequests expands an endpoint into its malformed requests: the ones every route gets
// (huge body, a body not sent as JSON, a path that is not canonical), the ones every route that
// reads JSON gets (broken, nested, non-UTF-8, wrong-kind bodies), and its own.
func hostileRequests(e hostileEndpoint, fill func(string) string) []hostileRequest {
	path := fill(e.path)
	huge := []byte(`{"x":"` + strings.Repeat("a", 1<<20) + `"}`)
	reqs := []hostileRequest{
		{name: "huge body", body: huge, status: 413, typ: "request.body_too_large"},
		{name: "text/plain", contentType: "text/plain", body: []byte(`{}`), status: 415, typ: "request.unsupported_media_type"},
		{name: "form", contentType: "application/x-www-form-urlencoded", body: []byte(`a=1`), status: 415, typ: "request.unsupported_media_type"},
		{name: "no content type", contentType: "-", body: []byte(`{}`), status: 415, typ: "request.unsupported_media_type"},
		{name: "chunked text/plain", contentType: "text/plain", body: []byte(`{}`), chunked: true, status: 415, typ: "request.unsupported_media_type"},
	}
	cut := strings.LastIndex(path, "/")
	for _, p := range []string{path[:cut] + "/." + path[cut:], path[:cut] + "/" + path[cut:], path[:cut] + "/x/.." + path[cut:], "/" + path, path + "/."} {
		reqs = append(reqs, hostileRequest{name: "non-canonical " + p, path: p, status: 400, typ: "request.non_canonical_path"})
	}
	if e.decodes {
		reqs = append(reqs,
			hostileRequest{name: "huge chunked body", body: huge, chunked: true, status: 413, typ: "request.body_too_large"},
			hostileRequest{name: "truncated", body: []byte(`{"a":`), status: 400, typ: "request.malformed"},
			hostileRequest{name: "trailing data", body: []byte(`{} {}`), status: 400, typ: "request.malformed"},
			hostileRequest{name: "invalid UTF-8", body: []byte("{\"a\":\"\xff\xfe\"}"), status: 400, typ: "request.malformed"},
			hostileRequest{name: "nested arrays", body: []byte(`{"a":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`), status: 400, typ: "request.malformed"},
			hostileRequest{name: "nested objects", body: []byte(strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000)), status: 400, typ: "request.malformed"},
			hostileRequest{name: "array body", body: []byte(`[]`), status: 422, typ: "request.invalid_field_type"},
			hostileRequest{name: "string body", body: []byte(`"x"`), status: 422, typ: "request.invalid_field_type"},
			hostileRequest{name: "overflowing number body", body: []byte(`1e400`), status: 422, typ: "request.invalid_field_type"},
		)
		for _, b := range e.bad {
			reqs = append(reqs, hostileRequest{name: b.body, body: []byte(fill(b.body)), status: b.status, typ: b.typ})
		}
	}
	for i := range reqs {
		if reqs[i].method == "" {
			reqs[i].method = e.method
		}
		if reqs[i].path == "" {
			reqs[i].path = path
		}
		switch reqs[i].contentType {
		case "":
			reqs[i].contentType = "application/json"
		case "-":
			reqs[i].contentType = ""
		}
	}
	return reqs
}

// hostileFixture fills a shop with something in every configuration list and gives it an
// order with a customer and a shipping address, and answers the path placeholders and the
// order's JWT.
func hostileFixture(t *testing.T, a *api) (map[string]string, string) {
	t.Helper()
	ctx := context.Background()
	a.do("POST", a.shopPath("/integration/config"), map[string]any{"shared_secret": "hostile-secret-1234"}).wantStatus(t, 200)
	a.do("POST", a.shopPath("/cors"), map[string]any{"domain": "https://shop.example.com"}).wantStatus(t, 200)
	a.do("POST", a.shopPath("/life_elements"), lifeElement()).wantStatus(t, 200)
	a.do("POST", a.shopPath("/external_payment_gateways"), gateway()).wantStatus(t, 200)
	a.do("POST", a.shopPath("/overrides"), map[string]any{"override_type": "tax", "url": "https://tax.example.com", "shared_secret": "override-secret-42"}).wantStatus(t, 200)
	a.do("POST", a.shopPath("/flows"), map[string]any{"flow_id": "hostile-flow", "flow_name": "Hostile", "flow_type": "custom"}).wantStatus(t, 200)
	issueCard(t, a)
	id, jwt, _ := initOrder(t, a)
	storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/customer/guest", guest()).wantStatus(t, 200)
	storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/addresses/shipping", usAddress()).wantStatus(t, 200)
	a.do("POST", a.shopPath("/webhooks"), map[string]any{"webhook_topic_id": 1, "callback_url": "https://hooks.example.com/x"}).wantStatus(t, 200)

	c := a.svc.Client()
	domain := c.CorsDomain.Query().OnlyX(ctx)
	element := c.LifeElement.Query().OnlyX(ctx)
	gw := c.ExternalPaymentGateway.Query().OnlyX(ctx)
	override := c.APIOverride.Query().OnlyX(ctx)
	hook := c.WebhookSubscription.Query().OnlyX(ctx)
	return map[string]string{
		"{shop}": a.shop, "{order}": id, "{domain}": strconv.Itoa(domain.ID), "{element}": element.PublicID,
		"{gateway}": gw.PublicID, "{override}": override.PublicID, "{webhook}": strconv.Itoa(hook.ID), "{flow}": "checkoutd-three-step",
	}, jwt
}

// databaseSnapshot is every row a request could change, with the secrets ent keeps out of JSON.
func databaseSnapshot(t *testing.T, c *ent.Client) string {
	t.Helper()
	ctx := context.Background()
	var out bytes.Buffer
	add := func(name string, rows any, err error) {
		if err != nil {
			t.Fatalf("snapshot of %s: %v", name, err)
		}
		raw, err := json.Marshal(rows)
		if err != nil {
			t.Fatal(err)
		}
		out.WriteString(name + ": ")
		out.Write(raw)
		out.WriteString("\n")
	}
	shops, err := c.Shop.Query().Order(ent.Asc("id")).All(ctx)
	add("shops", shops, err)
	for _, s := range shops {
		add("shop secret", s.SharedSecret, nil)
	}
	cors, err := c.CorsDomain.Query().Order(ent.Asc("id")).All(ctx)
	add("cors", cors, err)
	elements, err := c.LifeElement.Query().Order(ent.Asc("id")).All(ctx)
	add("life elements", elements, err)
	gateways, err := c.ExternalPaymentGateway.Query().Order(ent.Asc("id")).All(ctx)
	add("gateways", gateways, err)
	for _, g := range gateways {
		add("gateway token", g.APIToken, nil)
	}
	overrides, err := c.APIOverride.Query().Order(ent.Asc("id")).All(ctx)
	add("overrides", overrides, err)
	for _, o := range overrides {
		add("override secret", o.SharedSecret, nil)
	}
	rsa, err := c.RSAConfig.Query().Order(ent.Asc("id")).All(ctx)
	add("rsa", rsa, err)
	for _, r := range rsa {
		add("rsa secret", r.SharedSecret, nil)
	}
	hooks, err := c.WebhookSubscription.Query().Order(ent.Asc("id")).All(ctx)
	add("webhooks", hooks, err)
	deliveries, err := c.WebhookDelivery.Query().Order(ent.Asc("id")).All(ctx)
	add("deliveries", deliveries, err)
	flows, err := c.Flow.Query().Order(ent.Asc("id")).All(ctx)
	add("flows", flows, err)
	cards, err := c.GiftCard.Query().Order(ent.Asc("id")).All(ctx)
	add("gift cards", cards, err)
	codes, err := c.DiscountCode.Query().Order(ent.Asc("id")).All(ctx)
	add("discount codes", codes, err)
	orders, err := c.Order.Query().Order(ent.Asc("id")).All(ctx)
	add("orders", orders, err)
	lines, err := c.LineItem.Query().Order(ent.Asc("id")).All(ctx)
	add("line items", lines, err)
	payments, err := c.OrderPayment.Query().Order(ent.Asc("id")).All(ctx)
	add("payments", payments, err)
	transactions, err := c.PaymentTransaction.Query().Order(ent.Asc("id")).All(ctx)
	add("transactions", transactions, err)
	events, err := c.Event.Query().Order(ent.Asc("id")).All(ctx)
	add("events", events, err)
	keys, err := c.IdempotencyKey.Query().Order(ent.Asc("id")).All(ctx)
	add("idempotency keys", keys, err)
	variants, err := c.Variant.Query().Order(ent.Asc("id")).All(ctx)
	add("variants", variants, err)
	return out.String()
}

func TestHostileRequestsAreRefusedInTheEnvelopeAndChangeNothing(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		vars, jwt := hostileFixture(t, a)
		fill := func(s string) string {
			for k, v := range vars {
				s = strings.ReplaceAll(s, k, v)
			}
			return s
		}
		before := databaseSnapshot(t, a.svc.Client())
		for _, e := range hostileEndpoints {
			token := a.token
			if e.jwt {
				token = jwt
			}
			for _, req := range hostileRequests(e, fill) {
				r := a.send(token, req.method, req.path, req.contentType, req.body, req.chunked)
				name := fmt.Sprintf("%s: %s %s %.200s", e.family, req.method, req.path, req.name)
				if r.Status != req.status {
					t.Errorf("%s: status %d, want %d: %.300s", name, r.Status, req.status, r.Raw)
				} else if !isErrorEnvelope(r, req.typ) {
					t.Errorf("%s: not the error envelope of %q: %.300s", name, req.typ, r.Raw)
				}
			}
			// Once per route: a snapshot per request would make this the slowest test.
			if after := databaseSnapshot(t, a.svc.Client()); after != before {
				t.Errorf("a malformed request to %s %s changed the database:\n%s", e.method, e.path, snapshotDiff(before, after))
				before = after
			}
		}
	})
}

// snapshotDiff shows the lines of two snapshots that differ.
func snapshotDiff(before, after string) string {
	b, a := strings.Split(before, "\n"), strings.Split(after, "\n")
	var out strings.Builder
	for i := range max(len(b), len(a)) {
		var x, y string
		if i < len(b) {
			x = b[i]
		}
		if i < len(a) {
			y = a[i]
		}
		if x != y {
			fmt.Fprintf(&out, "before %s\nafter  %s\n", x, y)
		}
	}
	return out.String()
}

// isErrorEnvelope reports whether r is {"errors":[{code,type,message,details}]} of type typ
// (any type when typ is empty).
func isErrorEnvelope(r response, typ string) bool {
	errs, ok := r.Body["errors"].([]any)
	if !ok || len(errs) == 0 || len(r.Body) != 1 {
		return false
	}
	e, ok := errs[0].(map[string]any)
	if !ok {
		return false
	}
	for _, k := range []string{"code", "type", "message"} {
		if s, ok := e[k].(string); !ok || s == "" {
			return false
		}
	}
	if _, ok := e["details"].(map[string]any); !ok {
		return false
	}
	return typ == "" || e["type"] == typ
}
