package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// The example's rules, in one place.
const (
	// TaxRatePPM is the sales tax it charges: 8%, in parts per million.
	TaxRatePPM = 80_000
	// WelcomeCode takes WelcomePercent off the lines.
	WelcomeCode    = "WELCOME"
	WelcomePercent = 10
	// FreeShippingAbove is the subtotal from which standard shipping costs nothing.
	FreeShippingAbove = 5000
	// SoldOutSKU is a SKU the example's warehouse never has.
	SoldOutSKU = "SOLD-OUT"
)

// request is checkoutd's call (docs/overrides.md), the parts this example reads.
type request struct {
	OverrideType string          `json:"override_type"`
	Order        order           `json:"order"`
	AddressType  string          `json:"address_type"`
	Address      json.RawMessage `json:"address"`
	Code         string          `json:"code"`
	Stage        string          `json:"stage"`
}

type order struct {
	LineItems     []lineItem `json:"line_items"`
	Subtotal      int64      `json:"subtotal"`
	ShippingTotal int64      `json:"shipping_total"`
}

type lineItem struct {
	LineItemKey string `json:"line_item_key"`
	VariantID   string `json:"variant_id"`
	SKU         string `json:"sku"`
	Quantity    int    `json:"quantity"`
	Price       int64  `json:"price"`
	Discount    int64  `json:"discount"`
	Taxable     bool   `json:"taxable"`
}

type tax struct {
	Name       string `json:"name"`
	Value      int64  `json:"value"`
	IsIncluded bool   `json:"is_included"`
}

// server answers every override type at one URL: register the same URL for each type you
// want it to take over.
type server struct {
	secret []byte
	log    *slog.Logger
	now    func() time.Time
}

func newServer(secret string, log *slog.Logger) *server {
	return &server{secret: []byte(secret), log: log, now: time.Now}
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	if !s.signed(r.Header) {
		s.log.Warn("refused an unsigned or wrongly signed call")
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	var req request
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req); err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	var answer any
	switch req.OverrideType {
	case "address_validate":
		answer = validateAddress(req)
	case "shipping":
		answer = shippingLines(req.Order)
	case "discount":
		answer = discount(req)
	case "inventory":
		answer = inventory(req.Order)
	case "tax":
		answer = taxes(req.Order)
	default:
		http.Error(w, "unknown override_type", http.StatusBadRequest)
		return
	}
	s.log.Info("answered", "override_type", req.OverrideType)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(answer)
}

// signed checks X-HMAC: base64 of HMAC-SHA256 over X-HMAC-Timestamp with the override's shared
// secret, the timestamp within five minutes of now.
func (s *server) signed(h http.Header) bool {
	ts := h.Get("X-HMAC-Timestamp")
	at, err := time.Parse(time.RFC3339, ts)
	if err != nil || s.now().Sub(at).Abs() > 5*time.Minute {
		return false
	}
	mac := hmac.New(sha256.New, s.secret)
	mac.Write([]byte(ts))
	want := base64.StdEncoding.EncodeToString(mac.Sum(nil))
	return hmac.Equal([]byte(want), []byte(h.Get("X-HMAC")))
}

func validateAddress(req request) any {
	var addr map[string]any
	_ = json.Unmarshal(req.Address, &addr)
	line1, _ := addr["address_line_1"].(string)
	if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(line1)), "PO BOX") {
		return map[string]any{"valid": false, "message": "we cannot deliver to a PO box"}
	}
	if pc, ok := addr["postal_code"].(string); ok {
		addr["postal_code"] = strings.ToUpper(strings.TrimSpace(pc))
	}
	return map[string]any{"valid": true, "address": addr}
}

func shippingLines(o order) any {
	standard := int64(500)
	if o.Subtotal >= FreeShippingAbove {
		standard = 0
	}
	return map[string]any{"shipping_lines": []map[string]any{
		{"id": "standard", "description": "Standard (3-5 days)", "amount": standard, "code": "standard"},
		{"id": "express", "description": "Express (next day)", "amount": 1500, "code": "express"},
	}}
}

func discount(req request) any {
	if req.Code != WelcomeCode {
		return map[string]any{"valid": false, "message": "this code is not one of ours"}
	}
	return map[string]any{"valid": true, "text": "Welcome: 10% off", "value": req.Order.Subtotal * WelcomePercent / 100}
}

func inventory(o order) any {
	failed := []map[string]any{}
	for _, li := range o.LineItems {
		if li.SKU == SoldOutSKU {
			failed = append(failed, map[string]any{"platform_variant_id": li.VariantID, "available_quantity": 0,
				"requested_quantity": li.Quantity, "line_item_keys": []string{li.LineItemKey}})
		}
	}
	if len(failed) > 0 {
		return map[string]any{"result": "fail", "reason": "insufficient_stock", "failed_items": failed}
	}
	return map[string]any{"result": "pass", "failed_items": failed}
}

// taxOf is base at TaxRatePPM, rounded half up.
func taxOf(base int64) int64 { return (base*TaxRatePPM + 500_000) / 1_000_000 }

func taxes(o order) any {
	lines := map[string][]tax{}
	for _, li := range o.LineItems {
		if li.Taxable {
			lines[li.LineItemKey] = []tax{{Name: "Sales tax", Value: taxOf(li.Price*int64(li.Quantity) - li.Discount)}}
		}
	}
	return map[string]any{"line_taxes": lines, "shipping_taxes": []tax{{Name: "Sales tax", Value: taxOf(o.ShippingTotal)}}}
}
