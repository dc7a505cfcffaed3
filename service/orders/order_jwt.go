package orders

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/service/problem"
)

// OrderJWTLifetime is how long a storefront may use one order token.
const OrderJWTLifetime = 60 * time.Minute

type orderClaims struct {
	AuthType string `json:"auth_type"`
	Payload  struct {
		PublicOrderID string `json:"public_order_id"`
	} `json:"payload"`
	Shop string `json:"shop"`
	// OwnOverrides says the order was given API overrides of its own at init, so that a change
	// of an order without any asks nothing about them (ours; clients ignore it).
	OwnOverrides bool `json:"own_overrides,omitempty"`
	jwt.RegisteredClaims
}

// issueOrderJWT signs a token that opens exactly one order of one shop.
func (s *Service) issueOrderJWT(sh *ent.Shop, publicOrderID string, ownOverrides bool) (string, error) {
	now := s.p.Clock()
	c := orderClaims{AuthType: "V2_API", Shop: sh.Identifier, OwnOverrides: ownOverrides, RegisteredClaims: jwt.RegisteredClaims{
		IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(OrderJWTLifetime)),
	}}
	c.Payload.PublicOrderID = publicOrderID
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(sh.JwtKey)
}

// OrderSession is what a valid order JWT or a backend token opens. A storefront session is
// opened without reading the order: a change reads the row locked in its own transaction, and
// reading it before as well would read it twice. Order is then read on first need.
type OrderSession struct {
	Shop *ent.Shop
	// Order is nil in a storefront session until SessionOrder reads it.
	Order         *ent.Order
	publicOrderID string
	// noOwnOverrides: the order JWT says the order has no API overrides of its own.
	noOwnOverrides bool
	// reading guards the first read of Order: GraphQL resolves a query's fields concurrently.
	reading sync.Mutex
}

// PublicOrderID is the public id of the session's order.
func (sess *OrderSession) PublicOrderID() string {
	if sess.publicOrderID != "" {
		return sess.publicOrderID // a storefront session, whose Order may be being read
	}
	return sess.Order.PublicOrderID
}

// Storefront reports whether a shopper opened the session with the order JWT, rather than the
// shop's backend with its access token: only the backend may set what the catalog owns.
func (sess *OrderSession) Storefront() bool { return sess.publicOrderID != "" }

// knownOrder is the session's order if it has been read, else nil.
func (sess *OrderSession) knownOrder() *ent.Order {
	sess.reading.Lock()
	defer sess.reading.Unlock()
	return sess.Order
}

// SessionOrder is the session's order, read on first need. An order the JWT names that does not
// exist is refused like a bad token.
func (s *Service) SessionOrder(ctx context.Context, sess *OrderSession) (*ent.Order, error) {
	sess.reading.Lock()
	defer sess.reading.Unlock()
	if sess.Order == nil {
		o, err := s.p.DB.Read.Order.Query().Where(order.ShopID(sess.Shop.ID), order.PublicOrderID(sess.publicOrderID)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, problem.ErrUnauthorized
		}
		if err != nil {
			return nil, err
		}
		sess.Order = o
	}
	return sess.Order, nil
}

// LastKnownOrder is the session's order as this process last saw it, read only when it has not
// seen it: its id never changes, its other fields may have since.
func (s *Service) LastKnownOrder(ctx context.Context, sess *OrderSession) (*ent.Order, error) {
	if o := sess.knownOrder(); o != nil {
		return o, nil
	}
	if kept, ok := s.children.latest(sess.Shop.ID, sess.PublicOrderID()); ok {
		return kept.order, nil
	}
	return s.SessionOrder(ctx, sess)
}

// AuthenticateOrder checks a storefront JWT against the shop and order named in the path. Only
// HS256 signed with that shop's key, unexpired, for that very order, is accepted.
func (s *Service) AuthenticateOrder(ctx context.Context, shopIdentifier, publicOrderID, token string) (*OrderSession, error) {
	if token == "" {
		return nil, problem.ErrUnauthorized
	}
	sh, err := s.shops.CachedByIdentifier(ctx, shopIdentifier)
	if err != nil {
		if ent.IsNotFound(err) {
			return nil, problem.ErrUnauthorized
		}
		return nil, err
	}
	var c orderClaims
	_, err = jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return sh.JwtKey, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithTimeFunc(s.p.Clock), jwt.WithExpirationRequired())
	if err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			// The message is the one storefronts built on the public frontend library look for to
			// show their session-expired page.
			return nil, &problem.Error{Kind: problem.Unauthorized, Code: problem.CodeUnauthorized, Type: "auth.token_expired", Message: "Expired JWT",
				Details: map[string]any{"hint": "the order token has expired: resume the order for a new one"}}
		}
		return nil, problem.ErrUnauthorized
	}
	if c.Shop != sh.Identifier || c.Payload.PublicOrderID != publicOrderID || c.AuthType != "V2_API" {
		return nil, problem.ErrUnauthorized
	}
	return &OrderSession{Shop: sh, publicOrderID: publicOrderID, noOwnOverrides: !c.OwnOverrides}, nil
}

// AuthenticateOrderToken opens the order a bare JWT names, for callers (GraphQL) that have no
// shop or order in a path. The shop and order are read from the unverified claims only to find
// the key; the token is then checked exactly as AuthenticateOrder checks it.
func (s *Service) AuthenticateOrderToken(ctx context.Context, token string) (*OrderSession, error) {
	var c orderClaims
	if _, _, err := jwt.NewParser().ParseUnverified(token, &c); err != nil || c.Shop == "" || c.Payload.PublicOrderID == "" {
		return nil, problem.ErrUnauthorized
	}
	return s.AuthenticateOrder(ctx, c.Shop, c.Payload.PublicOrderID, token)
}
