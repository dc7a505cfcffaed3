package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/checkoutd/checkoutd/service/hmacsig"
	"github.com/checkoutd/checkoutd/service/rsa"
)

// The example's business rules.
const (
	// DiscountCode takes DiscountPercent off every line; any other code is refused.
	DiscountCode    = "SAVE10"
	DiscountPercent = 10
	// TaxRate is charged on taxable lines and on the shipping by apply_taxes.
	TaxRate = 0.08
	// HandlingFee is added to every order with a line to ship.
	HandlingFee = "1.50"
	// MaxPerLine is the most of one line that validate_inventory (final) accepts.
	MaxPerLine = 10
)

// maxBody bounds what is read of a request.
const maxBody = 1 << 20

// newAuthority is the whole RSA as an http.Handler: every request must carry checkoutd's
// signature (X-HMAC-Timestamp, X-HMAC) made with secret, or it is refused 401.
func newAuthority(secret string, log *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /shops/{shop}/orders/{order}/process_order_events", processOrderEvents)
	mux.HandleFunc("POST /shops/{shop}/orders/{order}/validate_address", validateAddress)
	mux.HandleFunc("POST /shops/{shop}/orders/{order}/validate_email_address", validateEmail)
	mux.HandleFunc("POST /shops/{shop}/orders/{order}/validate_discount_code", validateDiscountCode)
	mux.HandleFunc("POST /shops/{shop}/orders/{order}/validate_inventory", validateInventory)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := hmacsig.Verify(r.Header, []byte(secret), time.Now()); err != nil {
			log.Warn("refused an unsigned call", "path", r.URL.Path, "error", err)
			refuse(w, http.StatusUnauthorized, "bad signature")
			return
		}
		log.Info("call", "path", r.URL.Path)
		mux.ServeHTTP(w, r)
	})
}

func refuse(w http.ResponseWriter, status int, reason string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": reason})
}

func answer(w http.ResponseWriter, body any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(body)
}

// decode reads a JSON body, numbers kept as written (money is exact).
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(io.LimitReader(r.Body, maxBody))
	dec.UseNumber()
	return dec.Decode(v)
}

func validateAddress(w http.ResponseWriter, r *http.Request) {
	var a rsa.Address
	if err := decode(r, &a); err != nil || a.CountryCode == "" {
		refuse(w, http.StatusBadRequest, "an address needs a country_code")
		return
	}
	if strings.Contains(strings.ToLower(a.AddressLine1), "po box") {
		refuse(w, http.StatusBadRequest, "we do not deliver to PO boxes")
		return
	}
	answer(w, struct{}{})
}

func validateEmail(w http.ResponseWriter, r *http.Request) {
	var b struct {
		EmailAddress string `json:"email_address"`
	}
	if err := decode(r, &b); err != nil || !strings.Contains(b.EmailAddress, "@") {
		refuse(w, http.StatusBadRequest, "that is not an email address")
		return
	}
	answer(w, struct{}{})
}

func validateDiscountCode(w http.ResponseWriter, r *http.Request) {
	var b struct {
		DiscountCode string `json:"discount_code"`
	}
	if err := decode(r, &b); err != nil || b.DiscountCode != DiscountCode {
		refuse(w, http.StatusBadRequest, "unknown discount code")
		return
	}
	answer(w, struct{}{})
}

func validateInventory(w http.ResponseWriter, r *http.Request) {
	var b rsa.ValidateInventory
	if err := decode(r, &b); err != nil {
		refuse(w, http.StatusBadRequest, "unreadable")
		return
	}
	for _, it := range b.Items {
		if b.Type == "final" && it.Quantity > MaxPerLine {
			refuse(w, http.StatusBadRequest, fmt.Sprintf("at most %d of %s per order", MaxPerLine, it.LineItemKey))
			return
		}
	}
	answer(w, struct{}{})
}

func processOrderEvents(w http.ResponseWriter, r *http.Request) {
	var b rsa.ProcessOrderEvents
	if err := decode(r, &b); err != nil || len(b.Events) == 0 {
		refuse(w, http.StatusBadRequest, "a body with order_state and at least one event is required")
		return
	}
	st := b.OrderState
	for _, ev := range b.Events {
		if err := apply(&st, ev); err != nil {
			refuse(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	settle(&st)
	answer(w, st)
}

// apply applies one event to the state, in the order received.
func apply(st *rsa.OrderState, ev rsa.Event) error {
	raw, _ := json.Marshal(ev.Data)
	switch ev.EventName {
	case "set_shipping_address", "set_billing_address":
		var a rsa.Address
		if err := json.Unmarshal(raw, &a); err != nil {
			return err
		}
		if ev.EventName == "set_billing_address" {
			st.BillingAddress = &a
			return nil
		}
		st.ShippingAddress, st.SelectedShipping = &a, nil
	case "remove_shipping_address":
		st.ShippingAddress, st.SelectedShipping = nil, nil
	case "remove_billing_address":
		st.BillingAddress = nil
	case "set_customer":
		var c rsa.Customer
		if err := json.Unmarshal(raw, &c); err != nil {
			return err
		}
		st.Customer = &c
	case "remove_customer":
		st.Customer = nil
	case "get_shipping_lines":
		// settle offers the options.
	case "set_shipping_line":
		var d struct{ Index, Code string }
		_ = json.Unmarshal(raw, &d)
		st.ShippingOptions = shippingOptions(st)
		for i, o := range st.ShippingOptions {
			if d.Index == strconv.Itoa(i) || (d.Index == "" && d.Code == o.Code) {
				st.SelectedShipping = &rsa.SelectedShipping{RateName: o.RateName, Cost: o.Cost, Code: o.Code}
				return nil
			}
		}
		return fmt.Errorf("no shipping option matches that index or code")
	case "apply_taxes":
		st.CartParams["taxed"] = true
	case "add_discount_code", "remove_discount_code":
		var d struct{ Code string }
		_ = json.Unmarshal(raw, &d)
		codes := []string{}
		for _, c := range st.DiscountCodes {
			if c != d.Code {
				codes = append(codes, c)
			}
		}
		if ev.EventName == "add_discount_code" {
			codes = append(codes, d.Code)
		}
		st.DiscountCodes = codes
	default:
		return fmt.Errorf("unknown event %q", ev.EventName)
	}
	return nil
}

// settle works out what follows from the state: shipping options, discounts, taxes (once
// apply_taxes was asked) and the handling fee.
func settle(st *rsa.OrderState) {
	if st.CartParams == nil {
		st.CartParams = map[string]any{}
	}
	st.ShippingOptions = shippingOptions(st)
	ships, discounted := false, false
	for _, c := range st.DiscountCodes {
		discounted = discounted || c == DiscountCode
	}
	taxed := st.CartParams["taxed"] == true
	for i := range st.LineItems {
		l := &st.LineItems[i]
		ships = ships || l.RequiresShipping
		price := number(l.UnitPrice)
		l.Discounts, l.Taxes = []rsa.Discount{}, []rsa.Tax{}
		if discounted {
			off := round(price * DiscountPercent / 100)
			l.Discounts = append(l.Discounts, rsa.Discount{Text: "10% off", UnitAmount: money(off), Code: DiscountCode, Source: "discount_code"})
			price -= off
		}
		if taxed && l.Taxable {
			l.Taxes = append(l.Taxes, rsa.Tax{Name: "Sales tax", Rate: json.Number(fmt.Sprint(TaxRate)), UnitAmount: money(round(price * TaxRate))})
		}
	}
	if s := st.SelectedShipping; s != nil {
		s.Taxes = []rsa.Tax{}
		if taxed {
			s.Taxes = append(s.Taxes, rsa.Tax{Name: "Sales tax", Rate: json.Number(fmt.Sprint(TaxRate)), UnitAmount: money(round(number(s.Cost) * TaxRate))})
		}
	}
	st.Fees = []rsa.Fee{}
	if ships {
		st.Fees = append(st.Fees, rsa.Fee{Description: "Handling", Value: HandlingFee})
	}
}

// shippingOptions are the example's rates: two at home (US), one abroad, none without an address.
func shippingOptions(st *rsa.OrderState) []rsa.ShippingOption {
	switch {
	case st.ShippingAddress == nil:
		return []rsa.ShippingOption{}
	case st.ShippingAddress.CountryCode == "US":
		return []rsa.ShippingOption{{RateName: "Standard", Cost: "5.00", Code: "standard"}, {RateName: "Express", Cost: "15.00", Code: "express"}}
	}
	return []rsa.ShippingOption{{RateName: "International", Cost: "25.00", Code: "international"}}
}

func number(n json.Number) float64 {
	f, _ := n.Float64()
	return f
}

// round rounds to cents (the example speaks a two-decimal currency).
func round(f float64) float64 { return math.Round(f*100) / 100 }

func money(f float64) json.Number { return json.Number(strconv.FormatFloat(f, 'f', 2, 64)) }
