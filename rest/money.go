package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/checkoutd/checkoutd/service/checkout"
	"github.com/checkoutd/checkoutd/service/orders"
)

func (a *API) registerMoney(mux router) {
	const backend = "/checkout/orders/{shop}/{order}"
	captures := map[string]func(r *http.Request) checkout.CaptureScope{
		"/payments/capture":                      func(*http.Request) checkout.CaptureScope { return checkout.CaptureScope{} },
		"/payments/capture/full":                 func(*http.Request) checkout.CaptureScope { return checkout.CaptureScope{Full: true} },
		"/payments/capture/payment/{payment_id}": paymentScope,
	}
	for suffix, scope := range captures {
		mux.Handle("POST "+backend+suffix, a.withBackendOrder(a.capture(scope)))
	}
	refunds := map[string]func(r *http.Request) checkout.CaptureScope{
		"/refunds":                      func(*http.Request) checkout.CaptureScope { return checkout.CaptureScope{} },
		"/refunds/full":                 func(*http.Request) checkout.CaptureScope { return checkout.CaptureScope{Full: true} },
		"/refunds/payment/{payment_id}": paymentScope,
	}
	for suffix, scope := range refunds {
		mux.Handle("POST "+backend+suffix, a.withBackendOrder(a.refund(scope)))
	}
	mux.Handle("POST "+backend+"/cancel", a.withBackendOrder(a.cancel))
}

func paymentScope(r *http.Request) checkout.CaptureScope {
	return checkout.CaptureScope{PaymentID: r.PathValue("payment_id")}
}

// idempotent runs a money-moving call under the caller's Idempotency-Key header or
// idempotent_key body field, and renders its result, fresh or replayed, the same way: a replay
// answers the first answer byte for byte.
func idempotent[T any](a *API, w http.ResponseWriter, r *http.Request, sess *orders.OrderSession, body []byte,
	call func(ctx context.Context, operationKey string) (T, error), render func(T) (status int, data any)) {
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		var k struct {
			IdempotentKey string `json:"idempotent_key"`
		}
		_ = json.Unmarshal(body, &k)
		key = k.IdempotentKey
	}
	request := append([]byte(r.Method+" "+r.URL.Path+"\n"), body...)
	res, err := checkout.Idempotently(r.Context(), a.svc.Checkout, sess.Shop, key, request, call)
	if err != nil {
		writeError(w, r, err)
		return
	}
	status, data := render(res)
	writeJSON(w, status, map[string]any{"data": data})
}

// readBody reads the raw body (for the idempotency check) and decodes it into v.
func readBody(r *http.Request, v any) ([]byte, error) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, errBodyTooLarge
		}
		return nil, badRequest("could not read request body")
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))
	return raw, decode(r, v)
}

func (a *API) capture(scope func(*http.Request) checkout.CaptureScope) orderHandler {
	return func(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
		var in checkout.CaptureInput
		raw, err := readBody(r, &in)
		if err != nil {
			writeError(w, r, err)
			return
		}
		idempotent(a, w, r, sess, raw, func(ctx context.Context, operationKey string) (*checkout.CaptureResult, error) {
			return a.svc.Checkout.Capture(ctx, sess, scope(r), in, operationKey)
		}, func(res *checkout.CaptureResult) (int, any) {
			return captureStatus(res), res
		})
	}
}

func (a *API) refund(scope func(*http.Request) checkout.CaptureScope) orderHandler {
	return func(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
		var in checkout.RefundInput
		raw, err := readBody(r, &in)
		if err != nil {
			writeError(w, r, err)
			return
		}
		idempotent(a, w, r, sess, raw, func(ctx context.Context, operationKey string) (*checkout.RefundResult, error) {
			return a.svc.Checkout.Refund(ctx, sess, scope(r), in, operationKey)
		}, func(res *checkout.RefundResult) (int, any) {
			return refundStatus(res), refundBody(res)
		})
	}
}

// captureStatus is 207 when some captures succeeded and others were refused, 202 while one is
// unsettled.
func captureStatus(res *checkout.CaptureResult) int {
	switch {
	case res.Pending:
		return http.StatusAccepted
	case res.Partial():
		return http.StatusMultiStatus
	}
	return http.StatusOK
}

// refundStatus is 207 when some refunds succeeded and others failed, 202 while one is unsettled.
func refundStatus(res *checkout.RefundResult) int {
	switch {
	case res.Pending:
		return http.StatusAccepted
	case res.Partial:
		return http.StatusMultiStatus
	}
	return http.StatusOK
}

// refundData is the spec's refund result; the status tells partial and pending apart.
type refundData struct {
	AmountRefunded     int64                        `json:"amount_refunded"`
	TransactionDetails []checkout.RefundTransaction `json:"transaction_details"`
	EmailSent          bool                         `json:"email_sent"`
}

func refundBody(res *checkout.RefundResult) *refundData {
	if res == nil {
		return nil
	}
	return &refundData{AmountRefunded: res.AmountRefunded, TransactionDetails: res.TransactionDetails, EmailSent: res.EmailSent}
}

func (a *API) cancel(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in checkout.CancelInput
	raw, err := readBody(r, &in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	idempotent(a, w, r, sess, raw, func(ctx context.Context, operationKey string) (*cancelled, error) {
		res, err := a.svc.Checkout.CancelOrder(ctx, sess, in, operationKey)
		if err != nil {
			return nil, err
		}
		state, err := json.Marshal(res.View.State())
		return &cancelled{State: state, Voids: res.Voids, Refund: res.Refund}, err
	}, func(res *cancelled) (int, any) {
		return http.StatusOK, map[string]any{"application_state": res.State, "voids": res.Voids, "refund": refundBody(res.Refund)}
	})
}

// cancelled is a cancel's result as REST answers it. The application state is kept as its
// JSON: its open fields (addresses, shipping lines) hold structs, whose field order a decoded
// map would not keep.
type cancelled struct {
	State  json.RawMessage             `json:"application_state"`
	Voids  []checkout.MoneyTransaction `json:"voids"`
	Refund *checkout.RefundResult      `json:"refund"`
}
