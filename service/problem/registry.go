package problem

// Entry is one error checkoutd answers: its kind (the front door derives the status from it),
// code, type, and when it is answered. It is one row of docs/errors.md.
type Entry struct {
	Kind Kind
	Code string
	Type string
	When string
}

// The registry of every error type checkoutd answers. docs/errors.md is generated from it
// (go run ./cmd/errorsdoc, part of make generate), and TestRegistryListsEveryErrorType fails when
// the code answers a type missing here or no longer answers one listed here. Rows of one status
// are listed in this order.
var (
	// Errors are those of the service (whichever front door or command reaches it) and of the
	// REST API; GraphQL answers the service's too.
	Errors = []Entry{
		{Malformed, "02-00", "request.malformed", "body is not JSON (broken, trailing data, nested deeper than 10,000) or not UTF-8"},
		{Malformed, "02-00", "request.invalid_version_date", "`Service-API-Version-Date` / `Bold-API-Version-Date` is not a calendar date written YYYY-MM-DD"},
		{Malformed, "02-00", "request.non_canonical_path", "the path (or a batch sub-request's decoded endpoint) has a `.` or `..` segment or an empty one (`//`)"},
		{Unauthorized, "02-01", "auth.unauthorized", "missing or wrong access token, or a token of another shop; in GraphQL, an order JWT asking for anything but its own order"},
		{Unauthorized, "02-01", "auth.token_expired", "an order JWT past its 60 minutes, on REST or GraphQL: resuming the order gives a new one (details.hint)"},
		{NotFound, "02-04", "cors.domain_not_found", "unknown `domain_id`"},
		{NotFound, "02-04", "node.not_found", "GraphQL node of another shop or none"},
		{NotFound, "02-04", "route.not_found", "no endpoint at that method and path"},
		{NotFound, "02-04", "webhook.not_found", "unknown webhook id"},
		{NotFound, "02-04", "webhook_delivery.not_found", "replay of a delivery the webhook (in GraphQL, the shop) does not have, or a delivery id that is not a number"},
		{NotFound, "02-04", "flow.not_found", "enable/disable of a flow the shop does not have"},
		{NotFound, "02-04", "api_override.not_found", "unknown override public_id"},
		{NotFound, "02-04", "tax.zone_not_found", "update/delete of a tax zone the shop does not have (GraphQL)"},
		{NotFound, "02-04", "discount.code_not_found", "update/delete of a discount code the shop does not have (GraphQL)"},
		{NotFound, "02-04", "order.not_found", "a backend call (access token) or a resume naming an order the shop does not have"},
		{NotFound, "02-04", "product.variant_not_found", "update of a variant the shop does not have (GraphQL; the console too)"},
		{NotFound, "02-04", "product.not_found", "a product the shop does not have (console)"},
		{NotFound, "02-04", "shop.not_found", "`shop token` with an identifier no shop has"},
		{NotAllowed, "02-05", "request.method_not_allowed", "`CONNECT` (any other method without a route is a 404 `route.not_found`)"},
		{Conflict, "02-09", "shop.already_exists", "`shop create` with an identifier in use"},
		{Conflict, "02-09", "idempotency.in_progress", "a money call repeated with its idempotency key while the first is still running (docs/payments.md \"Idempotency\")"},
		{TooLarge, "02-13", "request.body_too_large", "body over 1 MiB"},
		{Unsupported, "02-15", "request.unsupported_media_type", "a non-empty REST body without `Content-Type: application/json` (or `application/*+json`, charset UTF-8 only); details.content_type"},
		{Invalid, "02-22", "request.invalid_field_type", "a field of the wrong JSON type, or a number out of its field's range (details.field names it; `\"\"` for the whole body)"},
		{Invalid, "02-22", "request.invalid_limit", "a webhook delivery page `limit` that is not a number from 1 to 250"},
		{Invalid, "02-22", "request.invalid_cursor", "a webhook delivery page `before` that is not a delivery id"},
		{Invalid, "02-22", "idempotency.key_reused", "an idempotency key used within 24 hours for another request (method, path or body)"},
		{Invalid, "02-22", "idempotency.invalid_key", "an idempotency key over 255 bytes"},
		{Invalid, "02-22", "batch.invalid_sub_requests", "`sub_requests` empty or over 50"},
		{Invalid, "02-22", "batch.nested", "a sub-request whose decoded endpoint is `/batch` (in its sub-response)"},
		{Invalid, "02-22", "batch.invalid_sub_request", "a sub-request's method is not GET/POST/PUT/PATCH/DELETE, or its endpoint has a query on a non-GET, a fragment, a bad escape, a control character or non-UTF-8 (in its sub-response; details.field)"},
		{Invalid, "02-22", "cors.invalid_domain", "domain without protocol and host"},
		{Invalid, "02-22", "request.text_too_long", "a text longer than its bound, where the input has one text field (`domain` of CORS, a discount `code`, a cancel `reason`, an email to validate; details.field, details.max_length); see \"Text bounds\" below and docs/api.md \"Bounds\""},
		{Invalid, "02-22", "currency.invalid", "not an ISO 4217 code"},
		{Invalid, "02-22", "integration.invalid_shared_secret", "shared_secret missing, blank or over 1024 characters"},
		{Invalid, "02-22", "webhook.shared_secret_not_configured", "webhook created before the shared secret"},
		{Invalid, "02-22", "webhook.invalid_topic", "webhook_topic_id not 1-6"},
		{Invalid, "02-22", "webhook.invalid_callback_url", "callback_url not an absolute http(s) URL, over 2048 characters, or refused by the outbound guard (the message says why: a link-local or metadata address, a private or other non-public address, a user name or password; docs/operations.md \"Outbound calls\")"},
		{Invalid, "02-22", "webhook_delivery.invalid_status", "a webhook delivery filter `status` other than pending, succeeded or failed"},
		{Invalid, "02-22", "webhook_delivery.in_progress", "replay of a delivery still being attempted (details.next_attempt_at)"},
		{Invalid, "02-22", "rsa_config.invalid_rsa_config", "url or shared_secret missing or invalid, over its bound, or a url the outbound guard refuses (as for callback_url)"},
		{Invalid, "02-22", "api_override.invalid_api_override_data", "override field missing or invalid, over its bound, or a url the outbound guard refuses (as for callback_url)"},
		{Invalid, "02-22", "flow.already_enabled", "enable of an enabled flow"},
		{Invalid, "02-22", "flow.not_enabled", "disable of a flow not enabled"},
		{Invalid, "02-22", "flow.already_exists", "custom flow registration with a flow_id the shop already has"},
		{Invalid, "02-22", "flow.invalid_flow_data", "custom flow registration with a flow_id or flow_name missing or invalid (flow_name over its bound included)"},
		{Invalid, "02-22", "gift_card.invalid_card", "unknown card or wrong pin (one answer for both)"},
		{Invalid, "02-22", "gift_card.missing_lookup", "neither public_payment_method_id nor card_token + card_pin"},
		{Invalid, "02-22", "gift_card.invalid_gift_card_data", "issuing a gift card with a field missing or invalid (GraphQL)"},
		{Invalid, "02-22", "gift_card.card_token_taken", "issuing a gift card with a card_token the shop already has (GraphQL)"},
		{Invalid, "02-22", "line_item.invalid_line_item", "a line item with a missing key, an out-of-bounds quantity or text, or, from a storefront, a catalog field (price, title, ...)"},
		{Invalid, "02-22", "line_item.invalid_quantity", "a line's quantity missing or outside 0-100,000, or an added item that would take its line past 100,000 (details.field)"},
		{Invalid, "02-22", "line_item.not_found", "a change naming a line_item_key the order does not have (details.line_item_key)"},
		{Invalid, "02-22", "line_item.too_many", "a new line on an order that already has 250 lines"},
		{Invalid, "02-22", "line_item.invalid_fulfillment", "fulfilled quantities without lines, or a fulfilled_quantity below 0 or above its line's quantity (details.field, line_item_key)"},
		{Invalid, "02-22", "order.invalid_cart_items", "init input out of bounds: cart items, flow_id, resumable_link, order_meta_data (details name each field)"},
		{Invalid, "02-22", "order.invalid_meta_data", "metadata input out of bounds (details name each field)"},
		{Invalid, "02-22", "order.unknown_product", "a cart item naming no product of the catalog (by platform_id or sku) and without an inline title and price (details name each item)"},
		{Invalid, "02-22", "order.invalid_resume", "resume without a `public_order_id`"},
		{Invalid, "02-22", "order.not_resumable", "resume of an order that is processing, processed or cancelled"},
		{Invalid, "02-22", "order.total_too_large", "a change that would take the order's lines past the largest subtotal (details.max_subtotal)"},
		{Invalid, "02-22", "order.cancel_reason_required", "cancel without a reason"},
		{Invalid, "02-22", "order.invalid_filter", "the console's order list filtered by an unknown status, or with `to` before `from` (console)"},
		{Invalid, "02-22", "customer.invalid_customer_data", "a customer without first or last name or a valid email address, a text over its bound, or an authenticated one without platform_id (details.field)"},
		{Invalid, "02-22", "customer.invalid_email_address", "validate_email_address with an address that is not one (details.field)"},
		{Invalid, "02-22", "customer.already_exists", "adding a customer to an order that has one (delete it first)"},
		{Invalid, "02-22", "customer.not_found", "update or delete of the customer of an order that has none"},
		{Invalid, "02-22", "address.invalid_address", "an address with a text over its bound, a missing or unknown country_code, a province_code not of that country, a missing postal code where the country needs one, a missing business name or phone number the shop's settings require, a postal code not of the country's format, or (on update) a blank country or province (details.field, address_type)"},
		{Invalid, "02-22", "shipping.line_not_available", "selecting a shipping line by an index or code that no line available to the order has (details.field)"},
		{Invalid, "02-22", "shipping.invalid_zone", "shipping zone field missing or invalid: a rate without name or code, of an unknown kind, or with an amount out of bounds (GraphQL, console; details name each field)"},
		{Invalid, "02-22", "product.invalid_product_data", "product field missing or invalid, over its bound, or a variant without platform_id or with one used twice (GraphQL, console; details name each field)"},
		{Invalid, "02-22", "product.invalid_variant_data", "variant update with a price, inventory_quantity, sku or title out of bounds (GraphQL, console)"},
		{Invalid, "02-22", "product.platform_id_taken", "a new product or variant with a platform_id the shop's catalog already has"},
		{Invalid, "02-22", "shop.invalid_identifier", "`shop create` with an identifier that is not 1-64 letters, digits, `.`, `_` or `-`"},
		{Invalid, "02-22", "shop.invalid_shop_data", "`shop create` with a name or domain over 255 characters"},
		{Invalid, "02-22", "capture.invalid_amount", "a capture of an amount (not full) that is missing, not positive, or over the largest amount"},
		{Invalid, "02-22", "capture.invalid_capture_data", "capture_data over its bound (details.field)"},
		{Invalid, "02-22", "capture.payment_not_found", "a capture of one payment (`/payments/capture/payment/{payment_id}`) naming no authorized payment of the order (details.field)"},
		{Invalid, "02-22", "refund.payment_not_found", "a refund of one payment (`/refunds/payment/{payment_id}`) naming no payment of the order (details.field)"},
		{Invalid, "02-22", "customer.supplied_at_init", "the deprecated Update Guest Customer (`PUT /customer/guest`) changing a name or email address init supplied (details.fields; Update Customer may)"},
		{Invalid, "02-22", "capture.nothing_to_capture", "nothing authorized is left to capture (details.capturable)"},
		{Invalid, "02-22", "capture.exceeds_authorized", "an amount over what is authorized and not captured; nothing is sent (details.capturable)"},
		{Invalid, "02-22", "capture.failed", "every capture of the call was refused (details.transactions, amount_remaining); `order/failed` is recorded"},
		{Invalid, "02-22", "refund.invalid_amount", "a refund of an amount (not full) that is missing, not positive, or over the largest amount"},
		{Invalid, "02-22", "refund.invalid_refund", "refund texts or objects out of bounds, or a line named twice in `line_items`"},
		{Invalid, "02-22", "refund.invalid_restock", "a restock quantity beyond what the line has left to return (details.returnable)"},
		{Invalid, "02-22", "refund.nothing_to_refund", "nothing captured is left to refund (details.refundable)"},
		{Invalid, "02-22", "refund.exceeds_captured", "an amount over what is captured and not refunded; nothing is sent (details.refundable)"},
		{Invalid, "02-22", "refund.failed", "every refund of the call was refused and none is pending (details.transaction_details)"},
		{Invalid, "02-22", "tax.too_many_tax_zones", "a shop's 1,001st tax zone"},
		{Invalid, "02-22", "order.not_open", "a change to an order that is processing, processed or cancelled (details.status; field `is_processed` when processed)"},
		{Invalid, "02-22", "address.invalid_address_type", "validate_address with an address_type other than shipping or billing"},
		{Invalid, "02-22", "inventory.invalid_stage", "check_inventory without stage=initial or stage=final"},
		{Invalid, "02-22", "payment_iframe.too_many_style_rules", "a payment page style sheet over 1000 rules"},
		{Invalid, "02-22", "saved_payment_method.not_found", "DELETE /payments/saved/{id}: nothing is vaulted (details.id)"},
		{Invalid, "02-22", "wallet_pay.not_configured", "any wallet_pay step: the shop has no wallet gateway (details.step, gateway_type)"},
		{Invalid, "02-22", "order.no_line_items", "process_order on an order without line items (details.field)"},
		{Invalid, "02-22", "order.no_customer", "process_order on an order without a customer (details.field)"},
		{Invalid, "02-22", "order.no_shipping_address", "process_order on an order that ships and has no shipping address (details.field)"},
		{Invalid, "02-22", "order.no_shipping_line", "process_order on an order that ships with no shipping line selected, or one no longer offered (details.field)"},
		{Invalid, "02-22", "order.no_billing_address", "process_order on an order with a tender that is not a gift card and no billing address (details.field)"},
		{Invalid, "02-22", "order.payments_do_not_cover_total", "process_order when tenders differ from the total (details.order_total, payments_total)"},
		{Invalid, "02-22", "order.no_payments", "backend authorize with no tender on the order"},
		{Invalid, "02-22", "inventory.insufficient", "process_order when a tracked variant lacks stock (details.line_item_key)"},
		{Invalid, "02-22", "payment.invalid_payment", "tender without token, or with a text or object over its bound (details.field)"},
		{Invalid, "02-22", "payment.invalid_amount", "a tender amount that is not positive or over the largest amount"},
		{Invalid, "02-22", "payment.gateway_not_found", "tender naming no gateway of the shop"},
		{Invalid, "02-22", "payment.currency_mismatch", "tender, gateway or gift card in another currency than the order"},
		{Invalid, "02-22", "payment.exceeds_order_total", "tenders would add up to more than the total"},
		{Invalid, "02-22", "payment.nothing_to_pay", "a tender without an amount when the tenders already cover the total"},
		{Invalid, "02-22", "payment.gift_card_balance", "gift card tender above the card's balance"},
		{Invalid, "02-22", "payment.not_found", "update/delete of a tender the order does not have (or already sent)"},
		{Invalid, "02-22", "payment.declined", "the gateway refused an authorization (details.gateway_error_code, payment_id)"},
		{Invalid, "02-22", "payment.authorization_failed", "the gateway did not answer, even when asked again"},
		{Invalid, "02-22", "payment.requires_action", "backend authorize whose gateway asks the shopper to act"},
		{Invalid, "02-22", "gift_card.expired", "gift card tender from an expired card"},
		{Invalid, "02-22", "gift_card.empty", "gift card tender from a card with no balance left"},
		{Invalid, "02-22", "tax.invalid_tax_zone", "tax zone name missing, unknown country or province, rate outside 0-1000000 ppm"},
		{Invalid, "02-22", "taxes.address_required", "Generate Taxes without the address taxes are due at (details.address_type)"},
		{Invalid, "02-22", "taxes.not_generated", "process_order: a tax zone covers the address but taxes were never generated"},
		{Invalid, "02-22", "taxes.out_of_date", "process_order: taxes were generated for another country or province than the current address"},
		{Invalid, "02-22", "discount.invalid_discount_code_data", "discount code field missing or invalid (GraphQL)"},
		{Invalid, "02-22", "discount.code_taken", "the shop already has that code (any case)"},
		{Invalid, "02-22", "discount.code_required", "apply, remove or validate without a code"},
		{Invalid, "02-22", "discount.invalid_code", "the shop has no such code"},
		{Invalid, "02-22", "discount.not_started", "before the code's starts_at"},
		{Invalid, "02-22", "discount.expired", "at or after the code's ends_at (also at process_order)"},
		{Invalid, "02-22", "discount.minimum_not_met", "order subtotal below the code's minimum (details.minimum_subtotal)"},
		{Invalid, "02-22", "discount.usage_limit_reached", "the code's uses are all taken (on apply, validate, or process_order losing the last use)"},
		{Invalid, "02-22", "discount.cannot_combine", "a second items code, or a second free-shipping code (details.applied_code)"},
		{Invalid, "02-22", "discount.not_applied", "removing a code the order does not hold"},
		{Invalid, "02-91", "external_payment_gateway.external_payment_gateway_not_configured", "update/delete of an unknown gateway"},
		{Invalid, "02-94", "life_element.invalid_life_element_data", "missing or invalid element field (spec), a text over its bound, or an `input_regex` too long or too complex"},
		{Invalid, "02-94", "life_element.life_element_not_configured", "update of an unknown element (spec)"},
		{Invalid, "02-91", "life_element.life_element_not_configured", "delete of an unknown element (spec)"},
		{Invalid, "02-91", "external_payment_gateway.invalid_external_payment_gateway_data", "missing gateway field (spec), a field over its bound, more than 20 `http_headers`, or a `base_url` the outbound guard refuses (as for callback_url)"},
		{Invalid, "02-89", "rsa_config.not_configured", "PATCH of the remote state authority before POST"},
		{Internal, "02-50", "server.internal_error", "a real fault; details are logged, not returned"},
	}

	// GraphQLErrors are those only GraphQL answers, and GraphQL's own cases of types of Errors.
	GraphQLErrors = []Entry{
		{NotFound, "02-04", "node.not_found", "also an `ID` argument that is not a number (`node(id: \"abc\")`), like the id of another shop's object"},
		{TooLarge, "02-13", "request.body_too_large", "a POST body, or a GET query string, over 64 KiB (the HTTP status is 413; details.max_bytes)"},
		{Invalid, "02-22", "graphql.token_limit", "the document has more than 10,000 tokens"},
		{Invalid, "02-22", "graphql.too_many_fragments", "the document defines more than 100 fragments"},
		{Invalid, "02-22", "graphql.too_many_fields", "more than 5,000 fields once each fragment spread is replaced by its fragment"},
		{Invalid, "02-22", "graphql.too_many_selections", "one selection set collects more than 200 fields (its fragments included)"},
		{Invalid, "02-22", "graphql.field_repeated", "one response name appears more than 20 times in one selection set (its fragments included)"},
		{Invalid, "02-22", "graphql.too_many_aliases", "more than 100 aliased fields, fragments expanded"},
		{Invalid, "02-22", "graphql.depth_limit", "selections nested more than 12 deep, fragments expanded (a chain of `ofType` in introspection does not count)"},
		{Invalid, "02-22", "graphql.introspection_depth_limit", "introspection nests `fields`, `inputFields`, `interfaces` or `possibleTypes` more than 2 deep"},
		{Invalid, "02-22", "graphql.introspection_disabled", "`__schema` or `__type` when introspection is turned off (`CHECKOUT_GRAPHQL_INTROSPECTION=false`)"},
		{Invalid, "02-22", "request.text_too_long", "a text in a `where` or `filter` argument over 255 characters (details.field, e.g. `where.or[1].publicOrderIDContains`; details.max_length)"},
		{Invalid, "02-22", "request.invalid_argument", "an argument that cannot be decoded, such as a cursor that is not one (details.field)"},
		{Unavailable, "02-50", "request.timeout", "the request ran past its 30-second deadline; its work was stopped"},
		{Internal, "02-50", "server.internal_error", "any error that is not one of these: logged with its message, answered as \"internal error\""},
	}

	// ConsoleErrors are those only the admin console answers. It shows every error as a page
	// (or a form) with its message, never with its code or type.
	ConsoleErrors = []Entry{
		{NotFound, "", "admin.not_found", "a console page that does not exist"},
	}
)

// Registry is every entry of every front door.
func Registry() []Entry {
	var all []Entry
	for _, entries := range [][]Entry{Errors, GraphQLErrors, ConsoleErrors} {
		all = append(all, entries...)
	}
	return all
}
