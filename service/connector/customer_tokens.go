package connector

import (
	"context"
	"encoding/json"
	"net/url"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/connectorcall"
	"github.com/checkoutd/checkoutd/ent/destination"
	"github.com/checkoutd/checkoutd/service/problem"
)

// OperationValidateCustomerToken is the connector's validate customer JWT.
const OperationValidateCustomerToken = "validate_customer_token"

func tokenRefused(message string) *problem.Error {
	return &problem.Error{Kind: problem.Unauthorized, Code: problem.CodeUnauthorized, Type: "customer.token_invalid", Message: message,
		Details: map[string]any{"field": "customer_jwt"}}
}

// ValidateCustomerToken asks the shop's platform (its customers destination) whether token is
// an active token of the customer platformID: an order is started for an authenticated customer
// only if the platform says so. Without a customers destination checkoutd has no one to ask, and
// the customer is taken as given. The call is logged (the token is not), and never retried: the
// caller is waiting.
func (s *Service) ValidateCustomerToken(ctx context.Context, sh *ent.Shop, platformID, token string) error {
	ds, err := s.destinationsOf(ctx, s.p.DB.Read, sh.ID)
	if err != nil {
		return err
	}
	d := ds[destination.TopicCustomers]
	if d == nil {
		return nil
	}
	if token == "" {
		return tokenRefused("customer_jwt is required for a customer with a platform_id: the shop's platform validates it")
	}
	if sh.SharedSecret == "" {
		return &problem.Error{Kind: problem.Unavailable, Code: problem.CodeInternal, Type: "platform.unavailable",
			Message: "the shop has no shared secret to sign the call to its platform with"}
	}
	path := "/customers/" + url.PathEscape(platformID) + "/validate"
	body := map[string]any{"data": map[string]any{"token_info": map[string]any{"token": token}}}
	start := time.Now()
	a, callErr := s.client.Do(ctx, Call{Operation: OperationValidateCustomerToken, Base: BaseURL(d.Destination, d.Version, sh.Identifier), Path: path, Method: methodPost,
		Secret: []byte(sh.SharedSecret), Timeout: time.Duration(d.TimeoutMs) * time.Millisecond, Body: body})
	latency := time.Since(start)
	var verdict error
	switch {
	case callErr != nil:
		verdict = &problem.Error{Kind: problem.Unavailable, Code: problem.CodeInternal, Type: "platform.unavailable",
			Message: "the shop's platform did not answer whether the customer's token is valid: " + callErr.Error()}
	case a.NotFound():
		verdict = tokenRefused("the shop's platform has no customer " + platformID)
	case !a.OK():
		verdict = &problem.Error{Kind: problem.Unavailable, Code: problem.CodeInternal, Type: "platform.unavailable",
			Message: "the customer token's validation failed: " + a.Said()}
	default:
		var answer struct {
			Data struct {
				TokenStatus struct {
					Active bool `json:"active"`
				} `json:"token_status"`
			} `json:"data"`
		}
		if json.Unmarshal(a.Body, &answer) != nil {
			verdict = &problem.Error{Kind: problem.Unavailable, Code: problem.CodeInternal, Type: "platform.unavailable",
				Message: "the shop's platform answered the customer token's validation with something other than {data:{token_status:{active}}}"}
		} else if !answer.Data.TokenStatus.Active {
			verdict = tokenRefused("the shop's platform says the customer's token is not active")
		}
	}
	redacted := map[string]any{"data": map[string]any{"token_info": map[string]any{"token": "[not logged]"}}}
	s.logDone(context.WithoutCancel(ctx), sh, d, OperationValidateCustomerToken, methodPost, path, redacted, a, callErr, latency)
	return verdict
}

// logDone records a call made while its caller waited, with its one attempt, as finished: it
// is shown in the call log like the queued ones, and is not replayed.
func (s *Service) logDone(ctx context.Context, sh *ent.Shop, d *ent.Destination, operation, method, path string, body any, a *Answer, callErr error, latency time.Duration) {
	raw, _ := json.Marshal(body)
	now := s.p.Clock()
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		create := tx.ConnectorCall.Create().SetShopID(sh.ID).SetDestinationID(d.ID).SetTopic(connectorcall.Topic(d.Topic)).
			SetOperation(operation).SetMethod(method).SetPath(path).SetIdempotencyKey("").SetRequestBody(string(raw)).
			SetAttemptCount(1).SetRoundAttempts(1).SetCreatedAt(now).SetUpdatedAt(now)
		attempt := tx.ConnectorAttempt.Create().SetAttemptedAt(now).SetLatencyMs(int(latency.Milliseconds()))
		if a != nil {
			answer := clip(a.Body, maxLoggedAnswer)
			create.SetLastStatusCode(a.Status).SetResponseBody(answer)
			attempt.SetStatusCode(a.Status).SetResponseBody(answer)
		}
		if callErr != nil || a == nil || !a.OK() {
			failure := a.Said()
			if callErr != nil {
				failure = callErr.Error()
			}
			create.SetStatus(connectorcall.StatusFailed).SetFailedAt(now).SetLastError(failure)
			attempt.SetError(failure)
		} else {
			create.SetStatus(connectorcall.StatusSucceeded).SetSucceededAt(now)
		}
		c, err := create.Save(ctx)
		if err != nil {
			return err
		}
		return attempt.SetCallID(c.ID).Exec(ctx)
	})
	if err != nil {
		s.p.Log.ErrorContext(ctx, "logging a connector call failed", "operation", operation, "error", err)
	}
}

// CheckCustomerToken is the read interface's Validate Customer JWT: the shop's platform says
// whether token is an active token of the customer platformID. Unlike the check at init, a shop
// without a customers destination has no one to ask, and the answer says so rather than taking
// the token as valid; a refused token is a 400, as the spec lists.
func (s *Service) CheckCustomerToken(ctx context.Context, sh *ent.Shop, platformID, token string) error {
	if token == "" {
		return &problem.Error{Kind: problem.Malformed, Code: problem.CodeBadRequest, Type: "query.invalid",
			Message: "jwt is required: the customer's token to validate", Details: map[string]any{"field": "jwt"}}
	}
	ds, err := s.destinationsOf(ctx, s.p.DB.Read, sh.ID)
	if err != nil {
		return err
	}
	if ds[destination.TopicCustomers] == nil {
		return &problem.Error{Kind: problem.NotConfigured, Code: "02-51", Type: "customer.no_destination",
			Message: "the shop has no customers destination: no platform to validate the customer's token with"}
	}
	err = s.ValidateCustomerToken(ctx, sh, platformID, token)
	if p, ok := problem.As(err); ok && p.Type == "customer.token_invalid" {
		return &problem.Error{Kind: problem.Malformed, Code: problem.CodeBadRequest, Type: "customer.token_invalid",
			Message: p.Message, Details: map[string]any{"field": "jwt"}}
	}
	return err
}
