package rsa_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/hmacsig"
	"github.com/checkoutd/checkoutd/service/rsa"
)

const rsaSecret = "rsa-shared-secret"

// rsaServer is a remote state authority that checks every call's signature, applies the events
// it is sent to the state it is sent, and answers the new state. It numbers its answers
// (cart_params.seq) and checks that each request carries its last answer for the order, and
// that no two requests of an order overlap.
type rsaServer struct {
	*httptest.Server

	mu sync.Mutex
	// events are the events received, in order of arrival.
	events []string
	// last is the seq of the last answer per order.
	last map[string]int
	// stale counts requests that did not carry the last answer; overlaps, requests of an order
	// that arrived while another was being answered.
	stale, overlaps int
	calls           map[string]int
	inflight        map[string]bool

	refuseAddress, refuseFinal atomic.Bool
	delay                      atomic.Int64
	// fee, when set, is a fee the RSA adds; prices sets a line's unit price, by key.
	fee    json.Number
	prices map[string]json.Number
}

func newRSAServer(t *testing.T) *rsaServer {
	s := &rsaServer{last: map[string]int{}, calls: map[string]int{}, inflight: map[string]bool{}, prices: map[string]json.Number{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /rsa/shops/{shop}/orders/{id}/{op}", s.handle)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := hmacsig.Verify(r.Header, []byte(rsaSecret), time.Now()); err != nil {
			http.Error(w, `{"message":"bad signature"}`, http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *rsaServer) count(op string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[op]
}

func (s *rsaServer) eventNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.events...)
}

func refuse(w http.ResponseWriter, reason string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(map[string]string{"message": reason})
}

func (s *rsaServer) handle(w http.ResponseWriter, r *http.Request) {
	op, id := r.PathValue("op"), r.PathValue("id")
	s.mu.Lock()
	s.calls[op]++
	s.mu.Unlock()
	if d := time.Duration(s.delay.Load()); d > 0 && op != "process_order_events" {
		select {
		case <-time.After(d):
		case <-r.Context().Done():
			return
		}
	}
	switch op {
	case "validate_address":
		if s.refuseAddress.Load() {
			refuse(w, "we do not deliver there")
			return
		}
		_, _ = w.Write([]byte(`{}`))
		return
	case "validate_email_address", "validate_discount_code":
		_, _ = w.Write([]byte(`{}`))
		return
	case "validate_inventory":
		var body rsa.ValidateInventory
		if json.NewDecoder(r.Body).Decode(&body) != nil || body.PublicOrderID != id {
			refuse(w, "unreadable")
			return
		}
		if body.Type == "final" && s.refuseFinal.Load() {
			refuse(w, "the last mug was sold")
			return
		}
		_, _ = w.Write([]byte(`{}`))
		return
	case "process_order_events":
	default:
		http.NotFound(w, r)
		return
	}
	var body rsa.ProcessOrderEvents
	dec := json.NewDecoder(r.Body)
	dec.UseNumber()
	if err := dec.Decode(&body); err != nil || len(body.Events) == 0 || body.PublicOrderID != id {
		refuse(w, fmt.Sprintf("unreadable: %v", err))
		return
	}
	s.mu.Lock()
	if s.inflight[id] {
		s.overlaps++
	}
	s.inflight[id] = true
	if got := fmt.Sprint(body.OrderState.CartParams["seq"]); got != fmt.Sprint(s.last[id]) && !(s.last[id] == 0 && body.OrderState.CartParams["seq"] == nil) {
		s.stale++
	}
	s.mu.Unlock()
	// A little time on each (or the delay asked for), so that concurrent requests would
	// overlap if they could.
	select {
	case <-time.After(max(5*time.Millisecond, time.Duration(s.delay.Load()))):
	case <-r.Context().Done():
		s.mu.Lock()
		s.inflight[id] = false
		s.mu.Unlock()
		return
	}
	st := body.OrderState
	for _, ev := range body.Events {
		s.apply(&st, ev)
	}
	s.mu.Lock()
	for _, ev := range body.Events {
		s.events = append(s.events, ev.EventName)
	}
	s.last[id]++
	st.CartParams["seq"] = s.last[id]
	for i, l := range st.LineItems {
		if p, ok := s.prices[l.LineItemKey]; ok {
			st.LineItems[i].UnitPrice = p
		}
	}
	if s.fee != "" {
		st.Fees = []rsa.Fee{{Description: "Handling", Value: s.fee}}
	}
	s.inflight[id] = false
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(st)
}

// apply is the RSA's business: shipping options once there is an address, a 10% tax per
// taxable line on apply_taxes, 1.00 off each unit for the code TENOFF.
func (s *rsaServer) apply(st *rsa.OrderState, ev rsa.Event) {
	raw, _ := json.Marshal(ev.Data)
	switch ev.EventName {
	case "set_shipping_address", "set_billing_address":
		var a rsa.Address
		_ = json.Unmarshal(raw, &a)
		if ev.EventName == "set_shipping_address" {
			st.ShippingAddress = &a
			st.ShippingOptions = []rsa.ShippingOption{{RateName: "Standard", Cost: "5.00", Code: "std"}, {RateName: "Express", Cost: "15.00", Code: "exp"}}
		} else {
			st.BillingAddress = &a
		}
	case "remove_shipping_address":
		st.ShippingAddress, st.ShippingOptions, st.SelectedShipping = nil, []rsa.ShippingOption{}, nil
	case "remove_billing_address":
		st.BillingAddress = nil
	case "set_customer":
		var c rsa.Customer
		_ = json.Unmarshal(raw, &c)
		st.Customer = &c
	case "remove_customer":
		st.Customer = nil
	case "set_shipping_line":
		var d struct{ Index, Code string }
		_ = json.Unmarshal(raw, &d)
		for i, o := range st.ShippingOptions {
			if d.Index == strconv.Itoa(i) || (d.Index == "" && d.Code == o.Code) {
				st.SelectedShipping = &rsa.SelectedShipping{RateName: o.RateName, Cost: o.Cost, Code: o.Code, Taxes: []rsa.Tax{}}
			}
		}
	case "apply_taxes":
		for i, l := range st.LineItems {
			if l.Taxable {
				p, _ := l.UnitPrice.Float64()
				st.LineItems[i].Taxes = []rsa.Tax{{Name: "RSA tax", Rate: "0.1", UnitAmount: json.Number(strconv.FormatFloat(p/10, 'f', 2, 64))}}
			}
		}
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
		for i := range st.LineItems {
			st.LineItems[i].Discounts = []rsa.Discount{}
			for _, c := range codes {
				if c == "TENOFF" {
					st.LineItems[i].Discounts = append(st.LineItems[i].Discounts, rsa.Discount{Text: "1 off", UnitAmount: "1.00", Code: c, Source: "rsa"})
				}
			}
		}
	}
}
